import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
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
 * The input of a queued run, read twice in flat memory: once for its digest
 * (the run's identity, checked against an earlier producer's before anything
 * is enqueued), once to enqueue it chunk by chunk. Standard input, which
 * cannot be read twice, is first copied to a temporary file.
 */
export interface RunInput {
  readonly meta: RunInputMeta;
  /** The lines again, in chunks of `chunkSize`. */
  chunks(): AsyncGenerator<TextHashLine[], void, undefined>;
  /** Removes the temporary copy of standard input, if any. */
  close(): Promise<void>;
}

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

/** Opens the input of `lookup --queue`: arguments, `--input FILE`, or standard input (`-0`: NUL-separated lines). */
export async function openRunInput(
  options: {
    readonly positionals: readonly string[];
    readonly input: string | undefined;
    readonly chunkSize: number;
    readonly nul: boolean;
  },
  stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean },
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
    const digest = createHash('sha256');
    let count = 0;
    for await (const line of checkedLines(source)) {
      digest.update(`${line.line}\t${line.hash}\t${line.name ?? ''}\t${line.nameBase64 ?? ''}\n`);
      count += 1;
    }
    const meta = { digest: digest.digest('hex'), lines: count, chunks: Math.ceil(count / options.chunkSize) };
    return { meta, chunks: () => inChunks(source, options.chunkSize), close };
  } catch (error) {
    await close();
    if (error instanceof UsageError) throw error;
    throw new UsageError(`lookup: cannot read --input ${options.input ?? '-'}: ${errorCode(error)}`);
  }
}
