import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ANSWER_MAX_AGE_LIMIT_MS, ANSWER_MAX_AGE_MS } from './checked-at.js';
import { flagDuration } from './config.js';
import { type HashLine, hashListBytes, type LineMode, MAX_LINE_BYTES, parseHashLine, readInput } from './hash-lines.js';
import { BlockDigests } from './input/block-digests.js';
import { byteLines, NUL_RECORDS, type RawLine, TEXT_LINES } from './input/byte-lines.js';
import type { Io } from './io.js';
import { duration, type Progress } from './progress.js';
import { type Freshness, ResumeState } from './resume/resume-state.js';
import type { InputSource } from './resume/state-file.js';
import { verifiedLines } from './resume/verified-lines.js';
import { counted } from './tally.js';
import { UsageError } from './usage-error.js';

/** `--resume STATE`, and the freshness its recorded answers must have to be skipped. */
export interface ResumeOptions {
  readonly path: string;
  readonly freshness: Freshness;
}

/** `--resume STATE` and `--max-age D` as flags: `--max-age` means nothing without a state (or `--queue`). */
export function resumeOptions(
  path: string | undefined,
  maxAge: string | undefined,
  now: number,
): ResumeOptions | undefined {
  const maxAgeMs = flagDuration(maxAge, 'max-age', { minMs: 1_000, maxMs: ANSWER_MAX_AGE_LIMIT_MS });
  if (path === undefined) {
    if (maxAgeMs !== undefined) throw new UsageError('lookup: --max-age applies to --resume STATE or --queue URL');
    return undefined;
  }
  return { path, freshness: { maxAgeMs: maxAgeMs ?? ANSWER_MAX_AGE_MS, now } };
}

/** What a resumed run says of the recorded answers it asks again, being too old to print. */
export function staleNote(path: string, state: ResumeState | undefined, maxAgeMs: number): string | undefined {
  const stale = state?.stale;
  if (stale === undefined) return undefined;
  return `hashscan-sms: --resume ${path}: ${counted(stale.lines, 'answer')} older than ${duration(maxAgeMs / 1_000)} (the oldest ${duration(stale.oldestMs / 1_000)} old) asked again`;
}

/** The lines `lookup` has to settle, and the resume state they are checked against. */
export interface LookupInput {
  /** Hash lines not settled yet, in input order, in batches; throws a `UsageError` if a resume state does not verify. */
  readonly lines: AsyncIterable<readonly HashLine[]>;
  readonly state: ResumeState | undefined;
  /** The digest of the block being read (for a line settled before its block is complete). */
  readonly readSoFar: () => ReturnType<BlockDigests['prefix']>;
  /** Hash lines read so far (blank lines and comments not counted; settled ones of a resumed run counted). */
  readonly count: () => number;
}

/**
 * Opens what `lookup` reads (arguments, `--input FILE` or stdin) as lines
 * of bytes in bounded memory, and with `--resume` the state, which sees the
 * input's digests as it is read and is checked against them. `mode` `nul`
 * (`-0`) cuts the input at NUL bytes (`sha256sum -z`), not newlines.
 */
export async function openLookupInput(
  positionals: readonly string[],
  input: string | undefined,
  resume: ResumeOptions | undefined,
  io: Io,
  progress: Progress,
  mode: LineMode = 'text',
): Promise<LookupInput> {
  let bytes: AsyncIterable<Buffer | string> | Iterable<Buffer>;
  let source: InputSource;
  let what = 'stdin';
  if (positionals.length > 0) {
    // Arguments are read as lines of one input: a resume state proves them the same way.
    bytes = [Buffer.from(positionals.map((arg) => `${arg}\n`).join(''))];
    source = { source: 'args' };
  } else if (input !== undefined && input !== '-') {
    const path = resolve(input);
    const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`lookup: cannot read --input ${input}: ${error.code ?? error.message}`);
    });
    let read = 0;
    bytes = readInput(path, (count) => {
      read += count;
      progress.counters.fraction = info.size > 0 ? read / info.size : undefined;
    });
    source = { source: 'file', path };
    what = `--input ${input}`;
  } else {
    if (io.stdin.isTTY === true && input === undefined) {
      throw new UsageError(
        'lookup: no hashes: pass them as arguments, with --input FILE, or on stdin\nRun `hashscan-sms lookup --help` for usage.',
      );
    }
    bytes = io.stdin as AsyncIterable<Buffer | string>;
    source = { source: 'stdin' };
  }
  // Digests (--resume) are of the list without its UTF-8 byte order mark: with or without one, it is the same list.
  const list = hashListBytes(toAsync(bytes), what);
  const split = mode === 'nul' ? NUL_RECORDS : TEXT_LINES;
  const counter = { lines: 0 };
  const count = (): number => counter.lines;
  if (resume === undefined) {
    const lines = hashLines(byteLines(list, MAX_LINE_BYTES, undefined, split), undefined, mode, counter);
    return { lines, state: undefined, readSoFar, count };
  }
  const state = ResumeState.open(resume.path, source, resume.freshness);
  const digests = new BlockDigests(
    (digest) => state.noteDigest(digest),
    (block) => state.recorded(block),
  );
  const raw = verifiedLines(byteLines(list, MAX_LINE_BYTES, digests, split), digests, state, resume.path);
  return { lines: hashLines(raw, state, mode, counter), state, readSoFar: () => digests.prefix(), count };
}

function readSoFar(): undefined {
  return undefined;
}

async function* toAsync<T>(items: AsyncIterable<T> | Iterable<T>): AsyncGenerator<T, void, undefined> {
  yield* items;
}

async function* hashLines(
  batches: AsyncIterable<readonly RawLine[]>,
  state: ResumeState | undefined,
  mode: LineMode,
  counter: { lines: number },
): AsyncGenerator<readonly HashLine[], void, undefined> {
  for await (const batch of batches) {
    const parsed: HashLine[] = [];
    for (const line of batch) {
      if (state?.isSettled(line.number) === true) {
        counter.lines += 1;
        continue;
      }
      const hashLine = parseHashLine(line.bytes, line.number, line.length, line.start, line.end, mode);
      if (hashLine === undefined) continue;
      counter.lines += 1;
      parsed.push(hashLine);
    }
    if (parsed.length > 0) yield parsed;
  }
}
