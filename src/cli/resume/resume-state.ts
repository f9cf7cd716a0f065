import { randomBytes } from 'node:crypto';
import { closeSync, ftruncateSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { BLOCK_LINES, type BlockDigest } from '../input/block-digests.js';
import type { RangeSet } from '../range-set.js';
import { UsageError } from '../usage-error.js';
import { AnsweredLines, type Decision, type DecisionCounts } from './answered-lines.js';
import { digestLine, journalHeader, parseJournal, settledLine, timeLine } from './journal.js';
import { coveredLines, describeSource, type InputSource, parseSnapshot, serializeSnapshot } from './state-file.js';

/** Snapshot the journal into the state file this often, so the journal stays short. */
const COMPACT_EVERY = 50_000;
/** A state may be dated this far ahead of this machine's clock (another machine's, or a clock set back). */
const CLOCK_SKEW_MS = 300_000;

/** Which recorded answers a run may skip: those answered at most `maxAgeMs` before `now` (both ms). */
export interface Freshness {
  readonly maxAgeMs: number;
  readonly now: number;
}

/** Settled lines too old to skip: asked again by this run. */
export interface StaleAnswers {
  readonly lines: number;
  /** Age of the oldest of them, ms. */
  readonly oldestMs: number;
}

/**
 * The checkpoint of `lookup --resume STATE`: which input lines are settled
 * (answered, or invalid: asking again would not change them), their
 * decisions, when each was answered, and digests of the input they were
 * read from. A failed lookup is not settled, so a resumed run asks again;
 * so is a line answered longer ago than the run's maximum age, and its old
 * answer is neither printed nor counted.
 *
 * Two files: `STATE`, a checksummed snapshot replaced atomically (written to
 * a temporary file, then renamed over it), and `STATE.journal`, bound to that
 * snapshot, to which each settled line is appended right after its result
 * is printed (one `write(2)` per batch of results, before the event loop
 * turns). A `write` is in the kernel once it returns, so even `kill -9`
 * loses at most the results being printed at that instant.
 *
 * Nothing is skipped on trust: the snapshot's checksum, counts that add up
 * to its settled lines, every journal line's check (bound to the snapshot's
 * id), and the input's own digests, block by block (see `verified-lines.ts`),
 * must all hold; anything else is refused with exit 64.
 */
export class ResumeState {
  /** Settled lines too old to skip, if any. */
  readonly stale: StaleAnswers | undefined;
  readonly #path: string;
  readonly #input: InputSource;
  readonly #answers: AnsweredLines;
  /** Lines answered recently enough to skip (seconds since the epoch, at or after `#since`). */
  readonly #fresh: RangeSet;
  readonly #since: number;
  readonly #blocks: BlockDigest[];
  readonly #journal: number;
  #id: string;
  /** The time the journal's last `t` record set, since its header. */
  #journaledAt: number | undefined;
  #pending = '';
  #scheduled = false;
  #sinceCompaction = 0;
  #refused = false;
  #closed = false;

  private constructor(
    path: string,
    input: InputSource,
    found: { id: string; blocks: BlockDigest[]; answers: AnsweredLines },
    freshness: Freshness,
  ) {
    this.#path = path;
    this.#input = input;
    this.#id = found.id;
    this.#blocks = found.blocks;
    this.#answers = found.answers;
    // A line answered at second `at` is at least `now - at - 1 s` old: skipped only if `at` is at or after this.
    this.#since = Math.ceil((freshness.now - freshness.maxAgeMs) / 1_000);
    this.#fresh = found.answers.since(this.#since);
    const older = found.answers.older(this.#since);
    this.stale =
      older.oldest === undefined ? undefined : { lines: older.lines, oldestMs: freshness.now - older.oldest * 1_000 };
    this.#journal = openSync(`${path}.journal`, 'a');
  }

  /**
   * Loads and checks `path` and its journal (a missing state starts afresh),
   * then compacts them. Lines answered more than `freshness.maxAgeMs` ago
   * are not settled for this run; answers dated ahead of the clock are refused.
   */
  static open(path: string, input: InputSource, freshness: Freshness): ResumeState {
    const refuse = (why: string): UsageError =>
      new UsageError(`--resume ${path} cannot be trusted (${why}); use a new state file`);
    const text = readOptional(path);
    const journal = parseJournal(readOptional(`${path}.journal`) ?? '');
    if (journal.problem !== undefined) throw refuse(`its journal: ${journal.problem}`);
    if (text === undefined) {
      if (journal.id !== undefined) throw refuse('a journal without its state file');
      const state = new ResumeState(
        path,
        input,
        { id: newId(), blocks: [], answers: AnsweredLines.empty() },
        freshness,
      );
      state.checkpoint();
      return state;
    }
    const snapshot = parseSnapshot(text, path);
    const blocks = [...snapshot.blocks];
    const answers = snapshot.answers;
    // A journal of the snapshot before (a kill between its rename and the journal's reset) is already in it.
    if (journal.id !== undefined && journal.id !== snapshot.previous) {
      if (journal.id !== snapshot.id) throw refuse('its journal belongs to another state');
      for (const record of journal.records) {
        if (record.kind === 'digest') {
          const why = extend(blocks, record.digest);
          if (why !== undefined) throw refuse(`its journal: ${why}`);
          continue;
        }
        if (record.line > coveredLines(blocks)) throw refuse(`its journal settles line ${record.line} of unread input`);
        // A line settled before may be settled again only by a later answer (it was asked again, being old).
        if ((answers.answeredAt(record.line) ?? 0) > record.at) {
          throw refuse(`its journal settles line ${record.line} twice`);
        }
        answers.add(record.line, record.decision, record.at);
      }
    }
    const ahead = (answers.latest ?? 0) * 1_000 - freshness.now;
    if (ahead > CLOCK_SKEW_MS) {
      throw refuse(`it holds answers dated ${Math.round(ahead / 1_000)} s ahead of this machine's clock`);
    }
    const state = new ResumeState(path, input, { id: snapshot.id, blocks, answers }, freshness);
    state.checkpoint();
    return state;
  }

  /** Settled inputs by decision that this run skips (answered within the maximum age), and those it settled. */
  get counts(): DecisionCounts {
    return this.#answers.counts(this.#since);
  }

  /** The recorded digest of block `block` (what the input read now must match), if any. */
  recorded(block: number): BlockDigest | undefined {
    return this.#blocks[block];
  }

  /** Lines of input the state has digests for. */
  get coveredLines(): number {
    return coveredLines(this.#blocks);
  }

  /** How the state describes its input, for messages. */
  get recordedInput(): string {
    return describeSource(this.#input);
  }

  /** Whether input line `line` was settled by this run, or by an earlier one within the maximum age. */
  isSettled(line: number): boolean {
    return this.#fresh.has(line);
  }

  /** A digest of input read (a full block, or the part of one a settled line needs): journaled if it adds to what is known. */
  noteDigest(digest: BlockDigest): void {
    if (this.#refused) return;
    const known = this.#blocks[digest.block];
    if (known !== undefined && known.lines >= digest.lines) return;
    if (extend(this.#blocks, digest) !== undefined) return;
    this.#append(digestLine(this.#id, digest));
  }

  /**
   * Records a settled line, answered at `answeredAt` (ms since the epoch):
   * call it once its result was handed to the operating system. `readSoFar`
   * gives the digest of the block being read, for a line settled before its
   * block is complete.
   */
  record(line: number, decision: Decision, answeredAt: number, readSoFar: () => BlockDigest | undefined): void {
    if (this.#fresh.has(line) || this.#refused || this.#closed) return;
    if (line > this.coveredLines) {
      const digest = readSoFar();
      if (digest !== undefined) this.noteDigest(digest);
      if (line > this.coveredLines) return; // cannot be proven: asked again next time
    }
    const at = Math.floor(answeredAt / 1_000);
    if (at !== this.#journaledAt) this.#append(timeLine(this.#id, at));
    this.#journaledAt = at;
    this.#append(settledLine(this.#id, line, decision));
    this.#answers.add(line, decision, at, this.#since);
    this.#fresh.add(line);
    this.#sinceCompaction += 1;
    if (this.#sinceCompaction >= COMPACT_EVERY) this.checkpoint();
  }

  /** The input did not verify: keep the files as they are (every record in them is still true). */
  refuse(): void {
    this.#refused = true;
  }

  /** Journal lines of one turn of the event loop go out in one write, before the loop turns. */
  #append(text: string): void {
    this.#pending += text;
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => this.#flush());
  }

  #flush(): void {
    this.#scheduled = false;
    // Closed: a late record has no journal to go to (it is asked again on resume, never lost).
    if (this.#pending === '' || this.#closed) return;
    const text = this.#pending;
    this.#pending = '';
    writeSync(this.#journal, text);
  }

  /** Writes the snapshot atomically under a new id, then starts an empty journal bound to it. */
  checkpoint(): void {
    if (this.#refused) return;
    // What is pending is in memory, so in the snapshot: dropped, not written under the old id.
    this.#pending = '';
    this.#journaledAt = undefined;
    const id = newId();
    const text = serializeSnapshot({
      id,
      previous: this.#id,
      input: this.#input,
      blocks: this.#blocks,
      answers: this.#answers,
    });
    const temporary = `${this.#path}.${process.pid}.tmp`;
    writeFileSync(temporary, text);
    renameSync(temporary, this.#path);
    // Killed right here, the journal still names the previous id: the next open knows it is in the snapshot.
    ftruncateSync(this.#journal, 0);
    writeSync(this.#journal, journalHeader(id));
    this.#id = id;
    this.#sinceCompaction = 0;
  }

  close(): void {
    if (this.#closed) return;
    this.#flush();
    this.checkpoint();
    this.#closed = true;
    closeSync(this.#journal);
  }
}

/** Adds a digest to the list if it extends it; else says why not. */
function extend(blocks: BlockDigest[], digest: BlockDigest): string | undefined {
  const known = blocks[digest.block];
  if (known !== undefined) {
    if (digest.lines < known.lines) return undefined; // older news
    if (digest.lines === known.lines && digest.digest !== known.digest) return `two digests of block ${digest.block}`;
    blocks[digest.block] = digest;
    return undefined;
  }
  const last = blocks.at(-1);
  if (digest.block !== blocks.length || (last !== undefined && last.lines !== BLOCK_LINES)) {
    return `a digest of block ${digest.block} out of order`;
  }
  blocks.push(digest);
  return undefined;
}

function newId(): string {
  return randomBytes(16).toString('hex');
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
