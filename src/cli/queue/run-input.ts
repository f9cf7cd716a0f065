import { createHash } from 'node:crypto';
import { createWriteStream, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { errorCode } from '../../util/error-code.js';
import {
  type LineMode,
  parseHashLine,
  readInput,
  readTextHashLines,
  type TextHashLine,
  textHashLine,
} from '../hash-lines.js';
import { UsageError } from '../usage-error.js';
import type { RunInputMeta } from './queue-room.js';

/**
 * The input of a queued run: read once for its digest (the run's identity,
 * checked against an earlier producer's before anything is enqueued), then
 * chunk by chunk to enqueue it and to print its rows. An input of up to
 * {@link KEPT_LINES} lines is kept from that first read while its file is
 * unchanged (parsing it again would cost the producer more CPU than the
 * lines take memory); a longer or changed one is read again each time, in
 * flat memory (a changed one is then said, see the producer). Standard input, which cannot be
 * read twice, is first copied to a temporary file.
 */
export interface RunInput {
  readonly meta: RunInputMeta;
  /** The lines again, in chunks of `chunkSize`. */
  chunks(): AsyncGenerator<TextHashLine[], void, undefined>;
  /** Removes the temporary copy of standard input, if any. */
  close(): Promise<void>;
}

/** Inputs up to this many lines are kept in memory from the first read (about 150 bytes a line). */
const KEPT_LINES = 100_000;

/** Arguments, or a file read as lines cut at newlines or (`-0`) at NUL bytes. */
type Source = { readonly path: string; readonly mode: LineMode } | { readonly args: readonly string[] };

function lines(source: Source): AsyncIterable<TextHashLine> | Iterable<TextHashLine> {
  if ('args' in source) return source.args.flatMap((text, i) => parseHashLine(text, i + 1) ?? []).map(textHashLine);
  return readTextHashLines(readInput(source.path), 'the input', source.mode);
}

/**
 * The lines, with a line that is not one hash (a second hash, a CR inside it, a bad escape) refused
 * before anything is queued: a usage error naming it. (An over-long line is queued and fails as an
 * invalid hash, as it always has.)
 */
async function* checkedLines(source: Source): AsyncGenerator<TextHashLine, void, undefined> {
  for await (const line of lines(source)) {
    if (line.invalid !== undefined && line.invalid.code !== 'LINE_TOO_LONG') {
      throw new UsageError(`lookup: ${line.invalid.message}; fix the input and queue it again`);
    }
    yield line;
  }
}

async function* inChunks(source: Source, size: number): AsyncGenerator<TextHashLine[], void, undefined> {
  let current: TextHashLine[] = [];
  for await (const line of lines(source)) {
    current.push(line);
    if (current.length === size) {
      yield current;
      current = [];
    }
  }
  if (current.length > 0) yield current;
}

/** What tells a file changed (a file edited during the run is read again, as a long one is, and the change is said). */
function identity(source: Source): string | undefined {
  if ('args' in source) return undefined;
  const { size, mtimeMs, ino, dev } = statSync(source.path);
  return `${size} ${mtimeMs} ${ino} ${dev}`;
}

function unchanged(source: Source, before: string | undefined): boolean {
  try {
    return identity(source) === before;
  } catch {
    return false;
  }
}

async function* keptChunks(kept: readonly TextHashLine[][]): AsyncGenerator<TextHashLine[], void, undefined> {
  yield* kept;
}

/** Opens the input of `lookup --queue`: arguments, `--input FILE`, or standard input (`-0`: NUL-separated lines). */
export async function openRunInput(
  options: {
    readonly positionals: readonly string[];
    readonly input: string | undefined;
    readonly chunkSize: number;
    readonly nul: boolean;
  },
  stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean },
  keptLines = KEPT_LINES,
): Promise<RunInput> {
  let source: Source;
  let spool: string | undefined;
  const mode: LineMode = options.nul ? 'nul' : 'text';
  if (options.positionals.length > 0) source = { args: options.positionals };
  else if (options.input !== undefined && options.input !== '-') source = { path: resolve(options.input), mode };
  else {
    if (stdin.isTTY === true && options.input === undefined) throw new UsageError('lookup: no hashes to queue');
    spool = await mkdtemp(join(tmpdir(), 'hashscan-sms-queue-'));
    source = { path: join(spool, 'stdin'), mode };
    await pipeline(stdin, createWriteStream(source.path));
  }
  const close = async (): Promise<void> => {
    if (spool !== undefined) await rm(spool, { recursive: true, force: true });
  };
  try {
    const before = identity(source);
    const digest = createHash('sha256');
    let count = 0;
    // The chunks as read, while the input is short enough to keep (`undefined` once it is not).
    let kept: TextHashLine[][] | undefined = [];
    for await (const line of checkedLines(source)) {
      digest.update(`${line.line}\t${line.hash}\t${line.name ?? ''}\t${line.nameBase64 ?? ''}\n`);
      count += 1;
      if (kept === undefined) continue;
      if (count > keptLines) kept = undefined;
      else if ((count - 1) % options.chunkSize === 0) kept.push([line]);
      else kept.at(-1)?.push(line);
    }
    const meta = { digest: digest.digest('hex'), lines: count, chunks: Math.ceil(count / options.chunkSize) };
    const chunks = (): AsyncGenerator<TextHashLine[], void, undefined> =>
      kept !== undefined && unchanged(source, before) ? keptChunks(kept) : inChunks(source, options.chunkSize);
    return { meta, chunks, close };
  } catch (error) {
    await close();
    if (error instanceof UsageError) throw error;
    throw new UsageError(`lookup: cannot read --input ${options.input ?? '-'}: ${errorCode(error)}`);
  }
}
