/** The row of a file settled as it stands: made straight from its stored row, no outcome or lookup on the way. */
import type { HashAlgorithm } from '../../index.js';
import { checkedAt } from '../checked-at.js';
import { nameCells } from '../names.js';
import type { Row } from '../output/index.js';
import { COL, type FileRow } from './schema.js';

/**
 * The fields a scan reports for a file whose identity and fresh answer are
 * the recorded ones: the same fields, with the same values, as when the
 * answer goes through the lookup stage (`change: unchanged`, its decision as
 * `previousDecision`).
 */
export function unchangedRow(path: Buffer, row: FileRow, algorithms: readonly HashAlgorithm[]): Row {
  // nameCells gives a new object: the other cells are added to it.
  const cells = nameCells('path', path) as Record<string, string | number | undefined>;
  cells.size = row[COL.size];
  for (const algorithm of algorithms) cells[algorithm] = row[COL[algorithm]] ?? undefined;
  const decision = row[COL.decision];
  cells.verdict = row[COL.verdict];
  cells.decision = decision;
  if (row[COL.verdict] === 'malicious') {
    const source = row[COL.source] ?? undefined;
    cells.source = source;
    cells.detail = source ?? 'flagged';
  }
  cells.checkedAt = checkedAt(row[COL.checked_at] as number);
  if (row[COL.verdict] === 'malicious') {
    cells.firstSeen = row[COL.first_seen] ?? undefined;
    cells.lastSeen = row[COL.last_seen] ?? undefined;
  }
  cells.change = 'unchanged';
  cells.previousDecision = decision;
  return cells;
}
