/**
 * The input room: lines of bytes, read in bounded memory, and the digests
 * that prove later which input was read (for `--resume`). Imports nothing
 * of the CLI's other rooms.
 */

/** One line of the input, without its terminator (`\n`, `\r\n`, or NUL: see {@link LineSplit}). */
export interface RawLine {
  /** 1-based line number. */
  readonly number: number;
  /**
   * Holds the line's bytes at `start` to `end` (the chunk read, so that a
   * line costs no view of its own); for a line longer than the limit, only
   * its first `limit` bytes are there.
   */
  readonly bytes: Buffer;
  readonly start: number;
  readonly end: number;
  /** The line's full length in bytes (more than `bytes.length` when cut). */
  readonly length: number;
}

/** Sees every byte of the input in order, and each line's end (the resume digests). */
export interface LineObserver {
  bytes(chunk: Buffer): void;
  lineEnd(number: number): void;
}

const NEWLINE = 0x0a;
const RETURN = 0x0d;

/** Where one line (record) of the input ends. */
export interface LineSplit {
  /** The byte that ends a record. */
  readonly separator: number;
  /** Whether a `\r` before the separator is dropped (a CRLF text line); else it is part of the record. */
  readonly dropReturn: boolean;
}

/** Text lines: `\n` or `\r\n` ends each. */
export const TEXT_LINES: LineSplit = { separator: NEWLINE, dropReturn: true };
/** NUL-separated records (`find -print0`, `sha256sum -z`): every other byte is the record's. */
export const NUL_RECORDS: LineSplit = { separator: 0x00, dropReturn: false };
/** Lines of exact bytes: `\n` ends each, and a `\r` before it is part of the line (a file name may end with one). */
export const EXACT_LINES: LineSplit = { separator: NEWLINE, dropReturn: false };

/**
 * Splits a stream of bytes into lines, a batch per chunk read (one await per
 * chunk, not per line: a list of millions of hashes is mostly per-line
 * overhead). Memory holds at most `limit` bytes of the current line: the rest
 * of an over-long line is counted (and seen by `observer`), never kept, so
 * one 50 MiB line without a newline costs no more than a short one. A last
 * line without a terminator is still a line. A line within one chunk is a
 * view of it (streams never reuse a chunk); one across chunks is a copy.
 * `split` says which byte ends a line ({@link TEXT_LINES} by default).
 */
export async function* byteLines(
  input: AsyncIterable<Buffer | string>,
  limit: number,
  observer?: LineObserver,
  split: LineSplit = TEXT_LINES,
): AsyncGenerator<readonly RawLine[], void, undefined> {
  const { separator, dropReturn } = split;
  let parts: Buffer[] = [];
  let kept = 0;
  let length = 0;
  let number = 0;
  const keep = (piece: Buffer): void => {
    length += piece.length;
    if (kept >= limit) return;
    const slice = piece.length > limit - kept ? piece.subarray(0, limit - kept) : piece;
    // A copy: what is kept of a line across chunks must not pin the chunk it started in.
    parts.push(Buffer.from(slice));
    kept += slice.length;
  };
  const line = (bytes: Buffer, start: number, end: number, full: number): RawLine => {
    number += 1;
    let stop = end;
    let size = full;
    if (dropReturn && size <= limit && stop > start && bytes[stop - 1] === RETURN) {
      stop -= 1;
      size -= 1;
    }
    observer?.lineEnd(number);
    return { number, bytes, start, end: stop, length: size };
  };
  const finish = (): RawLine => {
    const bytes = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, kept);
    const full = length;
    parts = [];
    kept = 0;
    length = 0;
    return line(bytes, 0, bytes.length, full);
  };
  for await (const chunk of input) {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const batch: RawLine[] = [];
    let start = 0;
    while (start < data.length) {
      const end = data.indexOf(separator, start);
      if (end === -1) {
        const rest = data.subarray(start);
        observer?.bytes(rest);
        keep(rest);
        break;
      }
      observer?.bytes(data.subarray(start, end + 1));
      if (length === 0 && end - start <= limit) batch.push(line(data, start, end, end - start));
      else {
        keep(data.subarray(start, end));
        batch.push(finish());
      }
      start = end + 1;
    }
    if (batch.length > 0) yield batch;
  }
  if (length > 0) yield [finish()];
}
