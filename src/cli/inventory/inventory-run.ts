/**
 * One `scan --inventory` run over the inventory: which walked files need
 * reading (their identity changed, or the inventory lacks a digest asked
 * for), which hashes have an answer younger than `--max-age`, each file's
 * transition, and the files gone from under the scanned roots.
 */
import type { HashAlgorithm, HashedFile } from '../../index.js';
import type { OutcomeView } from '../scan-row.js';
import { COL, type FileRow } from './schema.js';
import { chooseSqlite } from './sqlite-driver.js';
import { answerOf, entryOf, type FileIdentity, Inventory, type InventoryEntry, type StoredAnswer } from './store.js';
import { storedAnswer } from './stored-answer.js';
import { type TransitionCells, transition } from './transition.js';

/** What to do with a walked file. */
export type Plan =
  | { readonly kind: 'hash' }
  /** Its identity is the recorded one: its recorded digests stand, it is not read. */
  | { readonly kind: 'known'; readonly file: HashedFile<HashAlgorithm, Buffer> }
  /**
   * Its identity is the recorded one and so is the freshest answer for its
   * hash, younger than `--max-age`: settled as it stands (`unchanged`, nothing
   * to write), its row made straight from the stored one.
   */
  | { readonly kind: 'unchanged'; readonly row: FileRow };

/** The freshest answer of a hash: a stored row's, or one obtained in this run. */
type FreshAnswer = FileRow | StoredAnswer;

/** A settled file: its transition, and the write that records it (once its row is printed). */
export interface Settled {
  readonly cells: TransitionCells;
  readonly record: () => void;
}

export interface InventoryRunOptions {
  /** The scanned roots as given: a recorded file under one of them and not met is `gone`. */
  readonly roots: readonly string[];
  readonly algorithms: readonly HashAlgorithm[];
  /** An answer older than this is asked again. */
  readonly maxAgeMs: number;
}

export class InventoryRun {
  readonly #inventory: Inventory;
  readonly #rows: Map<string, FileRow>;
  /** The scanned roots, as prefixes of keys. */
  readonly #roots: readonly string[];
  /** Files met; a recorded file under the roots, not met and not kept, is gone. */
  readonly #met = new Set<string>();
  /** Folders that could not be listed: what the inventory holds below them is kept. */
  readonly #kept: string[] = [];
  /** Identities taken when files were met, until they settle. */
  readonly #identities = new Map<string, FileIdentity>();
  /** Answers young enough to stand, by hash. */
  readonly #fresh = new Map<string, FreshAnswer>();
  readonly #options: InventoryRunOptions;
  readonly #since: number;

  private constructor(inventory: Inventory, rows: Map<string, FileRow>, options: InventoryRunOptions) {
    this.#inventory = inventory;
    this.#rows = rows;
    this.#options = options;
    this.#since = Date.now() - options.maxAgeMs;
    this.#roots = options.roots.map((root) => rootPrefix(Buffer.from(root)));
    for (const row of rows.values()) {
      const hash = row[COL[row[COL.algorithm]]];
      if (hash !== null && row[COL.checked_at] !== null) this.#answered(hash, row);
    }
  }

  /** Opens (or creates) the inventory at `path` with the runtime's SQLite driver, and reads it. */
  static async open(path: string, options: InventoryRunOptions): Promise<InventoryRun> {
    const driver = await chooseSqlite();
    const inventory = Inventory.open(path, driver.open, driver.name);
    try {
      return new InventoryRun(inventory, inventory.load(path), options);
    } catch (error) {
      inventory.close();
      throw error;
    }
  }

  /**
   * What to do with a walked file, given the identity the walk took
   * (`undefined`: it could not be inspected); a file whose identity is the
   * recorded one is not read again.
   */
  plan(path: Buffer, identity: FileIdentity | undefined): Plan {
    const key = path.toString('hex');
    // Met, whatever follows: a file read after a failed `stat` (replaced then) is not `gone`.
    this.#met.add(key);
    // Reading it reports why it cannot be read.
    if (identity === undefined) return { kind: 'hash' };
    const previous = this.#rows.get(key);
    const algorithms = this.#options.algorithms;
    const primary = algorithms[0] as HashAlgorithm;
    if (previous === undefined || !sameIdentity(previous, identity)) {
      this.#identities.set(key, identity);
      return { kind: 'hash' };
    }
    // A digest asked for that the inventory lacks (a new `-a`): the file is read.
    if (algorithms.some((algorithm) => previous[COL[algorithm]] === null)) {
      this.#identities.set(key, identity);
      return { kind: 'hash' };
    }
    if (primary === previous[COL.algorithm] && this.#fresh.get(previous[COL[primary]] as string) === previous) {
      return { kind: 'unchanged', row: previous };
    }
    this.#identities.set(key, identity);
    const digests: Partial<Record<HashAlgorithm, string>> = {};
    for (const algorithm of algorithms) digests[algorithm] = previous[COL[algorithm]] as string;
    return {
      kind: 'known',
      file: { index: -1, path, size: identity.size, digests: digests as HashedFile<HashAlgorithm>['digests'] },
    };
  }

  /** Files under `path` are kept as they are (it could not be listed): never `gone` for that. */
  keep(path: Buffer): void {
    this.#kept.push(rootPrefix(path));
  }

  /** An answer for `hash` younger than `--max-age`, as an outcome and when it was obtained. */
  freshAnswer(hash: string): { readonly outcome: OutcomeView; readonly at: number } | undefined {
    const fresh = this.#fresh.get(hash);
    const answer = isRow(fresh) ? answerOf(fresh) : fresh;
    if (answer === undefined) return undefined;
    const outcome: OutcomeView =
      answer.verdict === 'malicious'
        ? {
            verdict: 'malicious',
            source: answer.source,
            data: { first_seen: answer.firstSeen, last_seen: answer.lastSeen },
          }
        : { verdict: 'not_detected' };
    return { outcome, at: answer.checkedAtMs };
  }

  /** A file with its outcome (asked now, or a fresh answer from `at`): its transition, and its record. */
  settle(
    file: HashedFile<HashAlgorithm, Buffer>,
    outcome: OutcomeView,
    decision: 'allow' | 'block' | 'review',
    at: number,
  ): Settled {
    const key = file.path.toString('hex');
    const identity = this.#identities.get(key);
    this.#identities.delete(key);
    const algorithm = this.#options.algorithms[0] as HashAlgorithm;
    const hash = file.digests[algorithm];
    const previous = this.#rows.get(key);
    const answer = storedAnswer(outcome, at);
    if (hash !== undefined && answer !== undefined) this.#answered(hash, answer);
    const cells = transition(
      previous && { decision: previous[COL.decision], hash: previous[COL[algorithm]] ?? undefined },
      { decision, hash },
    );
    const unchanged =
      previous !== undefined &&
      identity !== undefined &&
      sameIdentity(previous, identity) &&
      cells.change === 'unchanged' &&
      (previous[COL.checked_at] ?? undefined) === answer?.checkedAtMs;
    const entry: InventoryEntry = {
      path: file.path,
      identity: identity ?? { size: file.size, mtimeMs: -1, ino: -1, dev: -1 },
      digests: file.digests,
      algorithm,
      decision,
      answer,
    };
    // A file met as it was, with the answer it had: nothing to write.
    return { cells, record: unchanged ? () => {} : () => this.#inventory.put(entry) };
  }

  /** The transition of a file that could not be read (nothing recorded: its last state stands). */
  unreadable(path: Buffer, decision: string): TransitionCells {
    const key = path.toString('hex');
    this.#met.add(key);
    this.#identities.delete(key);
    const previous = this.#rows.get(key);
    return transition(previous && { decision: previous[COL.decision], hash: undefined }, { decision, hash: undefined });
  }

  /** Recorded files under the roots that the walk did not meet; call once the walk has ended. */
  *gone(): Generator<{ readonly entry: InventoryEntry; readonly record: () => void }, void, undefined> {
    const under = (key: string, roots: readonly string[]): boolean => roots.some((root) => isUnder(key, root));
    for (const [key, row] of this.#rows) {
      if (this.#met.has(key) || !under(key, this.#roots) || under(key, this.#kept)) continue;
      const entry = entryOf(row);
      yield { entry, record: () => this.#inventory.remove(entry.path) };
    }
  }

  /** An answer had for `hash` elsewhere (an object): it stands for files too while younger than `--max-age`. */
  remember(hash: string, answer: StoredAnswer): void {
    this.#answered(hash, answer);
  }

  /** Writes what is pending and closes the inventory. */
  close(): void {
    this.#inventory.close();
  }

  #answered(hash: string, answer: FreshAnswer): void {
    const at = answeredAt(answer);
    if (at < this.#since) return;
    const known = this.#fresh.get(hash);
    if (known === undefined || answeredAt(known) < at) this.#fresh.set(hash, answer);
  }
}

function isRow(answer: FreshAnswer | undefined): answer is FileRow {
  return Array.isArray(answer);
}

/** When an answer was obtained (ms since the epoch; a stored error row has none: never fresh). */
function answeredAt(answer: FreshAnswer): number {
  return isRow(answer) ? (answer[COL.checked_at] ?? Number.NEGATIVE_INFINITY) : answer.checkedAtMs;
}

function sameIdentity(row: FileRow, identity: FileIdentity): boolean {
  return (
    row[COL.size] === identity.size &&
    row[COL.mtime_ms] === identity.mtimeMs &&
    row[COL.ino] === identity.ino &&
    row[COL.dev] === identity.dev
  );
}

/** A root's bytes (hex, as keys are) as a prefix: its files are `root/…` (a trailing slash dropped, `/` kept). */
function rootPrefix(root: Buffer): string {
  let end = root.length;
  while (end > 1 && root[end - 1] === SLASH) end -= 1;
  return root.subarray(0, end).toString('hex');
}

/** `/` in hex. */
const SLASH_HEX = '2f';
const SLASH = 0x2f;

/** Whether the file keyed `key` (its path's bytes in hex) is `root` or below it (hex keeps bytes whole: two digits each). */
function isUnder(key: string, root: string): boolean {
  return key === root || key.startsWith(root === SLASH_HEX ? SLASH_HEX : `${root}${SLASH_HEX}`);
}
