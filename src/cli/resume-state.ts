import { closeSync, ftruncateSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { RangeSet } from './range-set.js';
import { UsageError } from './usage-error.js';

/** What a run reads, so a state file is never applied to another input. */
export type InputIdentity =
  | { readonly source: 'file'; readonly path: string; readonly size: number; readonly mtimeMs: number }
  | { readonly source: 'stdin' }
  | { readonly source: 'args'; readonly digest: string };

/** Settled inputs by decision, over every run of the same state file. */
export interface DecisionCounts {
  allow: number;
  block: number;
  review: number;
}

type Decision = keyof DecisionCounts;
const LETTER: Readonly<Record<Decision, string>> = { allow: 'a', block: 'b', review: 'r' };
const DECISION: Readonly<Record<string, Decision>> = { a: 'allow', b: 'block', r: 'review' };
const FORMAT = 'hashscan-sms-resume';
/** Snapshot the journal into the state file this often, so the journal stays short. */
const COMPACT_EVERY = 50_000;

/**
 * The checkpoint of `lookup --resume STATE`: which input lines are settled
 * (answered, or invalid: asking again would not change them) and their
 * decisions. A failed lookup is not settled, so a resumed run asks again.
 *
 * Two files: `STATE`, a snapshot replaced atomically (written to a temporary
 * file, then renamed over it), and `STATE.journal`, to which every settled
 * line is appended with one `write(2)` right after its result is printed.
 * A `write` is in the kernel once it returns, so even `kill -9` loses at most
 * the results being printed at that instant; replaying the journal on
 * resume is idempotent. Memory holds ranges, not lines.
 */
export class ResumeState {
  readonly counts: DecisionCounts;
  readonly #path: string;
  readonly #identity: InputIdentity;
  readonly #settled: RangeSet;
  readonly #journal: number;
  #sinceCompaction = 0;

  private constructor(path: string, identity: InputIdentity, settled: RangeSet, counts: DecisionCounts) {
    this.#path = path;
    this.#identity = identity;
    this.#settled = settled;
    this.counts = counts;
    this.#journal = openSync(`${path}.journal`, 'a');
  }

  /** Loads `path` (a missing file starts afresh), replays its journal and checks it belongs to `identity`. */
  static open(path: string, identity: InputIdentity): ResumeState {
    let settled = new RangeSet();
    const counts: DecisionCounts = { allow: 0, block: 0, review: 0 };
    const text = readOptional(path);
    if (text !== undefined) {
      const parsed = parseState(text, path);
      if (JSON.stringify(parsed.input) !== JSON.stringify(identity)) {
        throw new UsageError(
          `--resume ${path} was written for another input (${describeInput(parsed.input)}); use a new state file or the same input`,
        );
      }
      settled = parsed.settled;
      Object.assign(counts, parsed.counts);
    }
    for (const line of (readOptional(`${path}.journal`) ?? '').split('\n')) {
      const match = /^(\d+) ([abr])$/.exec(line);
      if (match === null) continue; // a line cut by the kill, or the empty tail
      const number = Number(match[1]);
      if (settled.has(number)) continue;
      settled.add(number);
      counts[DECISION[match[2] as string] as Decision] += 1;
    }
    const state = new ResumeState(path, identity, settled, counts);
    state.checkpoint();
    return state;
  }

  /** Whether input line `line` was settled by this or an earlier run. */
  isSettled(line: number): boolean {
    return this.#settled.has(line);
  }

  /** Records a settled line: call it right after printing its result. */
  record(line: number, decision: Decision): void {
    if (this.#settled.has(line)) return;
    writeSync(this.#journal, `${line} ${LETTER[decision]}\n`);
    this.#settled.add(line);
    this.counts[decision] += 1;
    this.#sinceCompaction += 1;
    if (this.#sinceCompaction >= COMPACT_EVERY) this.checkpoint();
  }

  /** Writes the snapshot atomically, then empties the journal it now covers. */
  checkpoint(): void {
    const snapshot = { format: FORMAT, version: 1, input: this.#identity, counts: this.counts, settled: this.#settled };
    const temporary = `${this.#path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(snapshot)}\n`);
    renameSync(temporary, this.#path);
    // Killed right here, the journal repeats what the snapshot holds: replay skips it.
    ftruncateSync(this.#journal, 0);
    this.#sinceCompaction = 0;
  }

  close(): void {
    this.checkpoint();
    closeSync(this.#journal);
  }
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function parseState(text: string, path: string): { input: unknown; settled: RangeSet; counts: DecisionCounts } {
  const bad = (): UsageError => new UsageError(`--resume ${path} is not a hashscan-sms state file`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw bad();
  }
  if (typeof value !== 'object' || value === null) throw bad();
  const record = value as Record<string, unknown>;
  const settled = RangeSet.parse(record.settled);
  const counts = record.counts as Record<string, unknown> | undefined;
  const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
  if (record.format !== FORMAT || record.version !== 1 || settled === undefined) throw bad();
  if (
    typeof counts !== 'object' ||
    counts === null ||
    !isCount(counts.allow) ||
    !isCount(counts.block) ||
    !isCount(counts.review)
  ) {
    throw bad();
  }
  return { input: record.input, settled, counts: { allow: counts.allow, block: counts.block, review: counts.review } };
}

function describeInput(input: unknown): string {
  if (typeof input !== 'object' || input === null) return 'unknown';
  const { source, path } = input as { source?: unknown; path?: unknown };
  return typeof path === 'string' ? `file ${path}` : typeof source === 'string' ? source : 'unknown';
}
