/** The flags of `scan --inventory`, their help, and the rows of files gone since the last run. */

import { durationLabel } from '../../config/duration.js';
import { ANSWER_MAX_AGE_LIMIT_MS, ANSWER_MAX_AGE_MS, checkedAt } from '../checked-at.js';
import { flagDuration } from '../config.js';
import { nameCells } from '../names.js';
import type { ResultWriter } from '../output/index.js';
import { UsageError } from '../usage-error.js';
import type { InventoryRun } from './inventory-run.js';

export const INVENTORY_OPTIONS = {
  inventory: { type: 'string' },
  'max-age': { type: 'string' },
  'changes-only': { type: 'boolean' },
} as const;

export const INVENTORY_HELP = `Inventory (a store of files inspected over time):
  --inventory FILE      an SQLite file (created if absent) of every file's identity
                        (path bytes, size, mtime, inode, device), digests and answer:
                        a file whose identity is unchanged is not read again, and
                        each row says what changed: change (new, unchanged, modified,
                        verdict, gone) and previousDecision. An s3:// object is kept
                        by bucket and key with its version id, ETag, size and last-
                        modified: one listed as recorded is neither HEADed nor
                        downloaded; only a listing that reached its end marks gone
  --max-age D           ask again a hash answered longer ago than D (1s, 90s, 15m,
                        12h, 7d; default ${durationLabel(ANSWER_MAX_AGE_MS)}): an answer is the state at the
                        moment of the query
  --changes-only        print only files whose change is not "unchanged"
  --fail-on new-block   exit 3 when a block appeared that the inventory did not hold
                        (a new or modified file, or one flagged since), else as usual`;

/** What the inventory flags ask for; `undefined` without `--inventory` (then the others are usage errors). */
export function inventoryOptions(values: {
  readonly inventory?: string | undefined;
  readonly 'max-age'?: string | undefined;
  readonly 'changes-only'?: boolean | undefined;
  readonly 'fail-on'?: string | undefined;
}): { readonly path: string; readonly maxAgeMs: number; readonly changesOnly: boolean } | undefined {
  if (values.inventory === undefined) {
    const alone = [
      values['max-age'] === undefined ? undefined : '--max-age',
      values['changes-only'] === true ? '--changes-only' : undefined,
      values['fail-on'] === 'new-block' ? '--fail-on new-block' : undefined,
    ].find((flag) => flag !== undefined);
    if (alone !== undefined) throw new UsageError(`scan: ${alone} needs --inventory FILE`);
    return undefined;
  }
  if (values.inventory === '') throw new UsageError('scan: --inventory needs a file name');
  return {
    path: values.inventory,
    maxAgeMs:
      flagDuration(values['max-age'], 'max-age', { minMs: 1_000, maxMs: ANSWER_MAX_AGE_LIMIT_MS }) ?? ANSWER_MAX_AGE_MS,
    changesOnly: values['changes-only'] === true,
  };
}

/** A row per recorded file under the roots that the walk did not meet (the inventory forgets each once printed); how many. */
export function reportGone(run: InventoryRun, writer: ResultWriter): number {
  let count = 0;
  for (const { entry, record } of run.gone()) {
    count += 1;
    writer.write(
      {
        ...nameCells('path', entry.path),
        ...entry.digests,
        size: entry.identity.size,
        change: 'gone',
        previousDecision: entry.decision,
        ...(entry.answer === undefined ? {} : { checkedAt: checkedAt(entry.answer.checkedAtMs) }),
      },
      record,
    );
  }
  return count;
}
