import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { readInput } from './hash-lines.js';
import { byteLines, EXACT_LINES, NUL_RECORDS } from './input/byte-lines.js';
import type { Io } from './io.js';
import { UsageError } from './usage-error.js';

/**
 * Longest entry taken as a path from a list: well past any `PATH_MAX`, so
 * a longer one is not a path but a list that is not what `-0` says (a
 * newline-separated list read with `-0` is one record). Only this much of
 * it is held.
 */
export const MAX_LISTED_PATH_BYTES = 64 * 1024;

/** Where `scan` reads its list of paths, and how the list is cut. */
export interface PathListSource {
  /** `--input FILE`; `-` or `undefined` (with `-0`) is standard input. */
  readonly input: string | undefined;
  /** `-0`: NUL-separated (`find -print0`); else newline-separated. */
  readonly nul: boolean;
}

/** What `scan` learns of its list as it reads it. */
export interface PathListEvents {
  /** An entry over {@link MAX_LISTED_PATH_BYTES}: never opened (a cut path could be another file's). */
  overlong(start: Buffer, length: number): void;
}

/** The list's entries as a count, for the notice on an empty list. */
export interface PathList {
  readonly paths: AsyncIterable<Buffer>;
  /** Entries read so far (empty ones not counted). */
  readonly count: () => number;
  /** How the list is named in messages (`--input FILE`, `stdin`). */
  readonly what: string;
}

/**
 * Opens the list of paths `scan --input FILE` / `scan -0` reads. Entries
 * are bytes, never decoded: a name that is not UTF-8, or that holds a
 * backslash, a CR (or, with `-0`, a newline) is opened exactly as listed.
 * Newline-separated, each line is a path with every byte but the `\n` (a
 * `\r` before it included: a name may end with one); NUL-separated, every
 * byte but the NUL. Empty entries are skipped. A `FILE` that cannot be read
 * is a usage error; so is `-0` without `--input` on a terminal (`--input -` reads what is typed).
 */
export async function openPathList(source: PathListSource, io: Io, events: PathListEvents): Promise<PathList> {
  let bytes: AsyncIterable<Buffer | string>;
  let what = 'stdin';
  if (source.input !== undefined && source.input !== '-') {
    const path = resolve(source.input);
    await stat(path).catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`scan: cannot read --input ${source.input}: ${error.code ?? error.message}`);
    });
    bytes = readInput(path);
    what = `--input ${source.input}`;
  } else {
    // `-0` alone on a terminal is a list nobody is piping: say so rather than wait for typing.
    if (source.input === undefined && io.stdin.isTTY === true)
      throw new UsageError('scan: -0 reads the list from stdin: pipe one in (find … -print0 | …) or give --input LIST');
    bytes = io.stdin as AsyncIterable<Buffer | string>;
  }
  let count = 0;
  async function* paths(): AsyncGenerator<Buffer, void, undefined> {
    const split = source.nul ? NUL_RECORDS : EXACT_LINES;
    for await (const batch of byteLines(bytes, MAX_LISTED_PATH_BYTES, undefined, split)) {
      for (const entry of batch) {
        if (entry.length === 0) continue;
        count += 1;
        const start = entry.bytes.subarray(entry.start, entry.end);
        if (entry.length > entry.end - entry.start) events.overlong(start, entry.length);
        // A copy: the entry is a view of the chunk read, and a path lives until its row is printed.
        else yield Buffer.from(start);
      }
    }
  }
  return { paths: paths(), count: () => count, what };
}
