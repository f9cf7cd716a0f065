import { createReadStream } from 'node:fs';
import { byteLines } from './input/byte-lines.js';
import { type RefusedEncoding, withoutByteOrderMark } from './input/byte-order-mark.js';
import { nameCells, nameText } from './names.js';
import { UsageError } from './usage-error.js';

/** Longest line taken as a hash line (a hash, two spaces, a path of up to `PATH_MAX` bytes, with room to spare). */
export const MAX_LINE_BYTES = 8 * 1024;

/** One hash of the input, with where it came from. */
export interface HashLine {
  /** 1-based line number in the input (for arguments: their position). */
  readonly line: number;
  /** The hash as written (checked by the client, not here); for an over-long line, its start, cut. */
  readonly hash: string;
  /** The file name after the hash, when the line is `sha256sum` output (`<hash>  <name>`): bytes, as names are. */
  readonly name?: Buffer;
  /** Set on a line longer than {@link MAX_LINE_BYTES}: its length in bytes. Such a line is invalid, never looked up. */
  readonly overlong?: number;
}

/** ASCII white space, as `\s` would match it in a line of bytes. */
function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || (byte !== undefined && byte >= 0x09 && byte <= 0x0d);
}

/** Bytes of an over-long line shown in its result (the rest is cut). */
const SHOWN_OF_OVERLONG = 80;

/**
 * Parses one line: blank lines and `#` comments give `undefined`; otherwise
 * the first word is the hash, and anything after it a file name, so the
 * output of `sha256sum`/`md5sum` (`<hash>  <name>`, `<hash> *<name>`) works
 * as input. The name stays bytes. A line cut by the reader (`length` beyond
 * its bytes) is over-long: reported, never parsed.
 */
export function parseHashLine(
  text: Buffer | string,
  line: number,
  length?: number,
  from = 0,
  to?: number,
): HashLine | undefined {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  let start = from;
  let end = to ?? bytes.length;
  if (length !== undefined && length > end - start) {
    const shown = nameText(bytes.subarray(start, Math.min(end, start + SHOWN_OF_OVERLONG)));
    return { line, hash: `${shown}…`, overlong: length };
  }
  while (start < end && isSpace(bytes[start])) start += 1;
  while (end > start && isSpace(bytes[end - 1])) end -= 1;
  if (start === end || bytes[start] === 0x23) return undefined;
  let word = start;
  let ascii = true;
  while (word < end) {
    const byte = bytes[word] as number;
    if (isSpace(byte)) break;
    if (byte >= 0x80) ascii = false;
    word += 1;
  }
  // A hash is ASCII: read it as is (the `\xNN` form is for a first word that is not UTF-8).
  const hash = ascii ? bytes.toString('latin1', start, word) : nameText(bytes.subarray(start, word));
  let name = word;
  while (name < end && isSpace(bytes[name])) name += 1;
  if (bytes[name] === 0x2a) name += 1; // `*`: binary mode in sha256sum's output
  // A copy: the line is in the chunk read, and the name lives until its result is printed.
  return name >= end ? { line, hash } : { line, hash, name: Buffer.from(bytes.subarray(name, end)) };
}

/** Reads the input file in large chunks; `onBytes` sees how much was read (the progress line's share). */
export async function* readInput(path: string, onBytes?: (bytes: number) => void): AsyncGenerator<Buffer> {
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 })) {
    onBytes?.((chunk as Buffer).length);
    yield chunk as Buffer;
  }
}

/**
 * The bytes of a hash list without its leading UTF-8 byte order mark; a
 * UTF-16 list is a usage error naming `what` (`--input FILE`, `stdin`).
 */
export function hashListBytes(
  input: AsyncIterable<Buffer | string>,
  what: string,
): AsyncGenerator<Buffer, void, undefined> {
  const refuse = (encoding: RefusedEncoding): UsageError =>
    new UsageError(
      `lookup: ${what} is ${encoding} (it starts with that byte order mark); hash lists are read as UTF-8: convert it first, e.g. \`iconv -f UTF-16 -t UTF-8 list.txt > list-utf8.txt\``,
    );
  return withoutByteOrderMark(input, refuse);
}

/**
 * A hash line whose name is text: `lookup --queue` sends lines through Redis
 * as JSON, so a name that is not UTF-8 travels in its `\xNN` form there,
 * with its exact bytes beside it (as a local run prints them).
 */
export interface TextHashLine {
  readonly line: number;
  readonly hash: string;
  readonly name?: string;
  /** The name's exact bytes, when it is not valid UTF-8 (`name` is then not the name itself). */
  readonly nameBase64?: string;
}

/** The hash lines of `input`, read as bytes in bounded memory (an over-long line keeps its cut start as hash). */
export async function* readTextHashLines(
  input: AsyncIterable<Buffer | string> | Iterable<Buffer>,
  what = 'the input',
): AsyncGenerator<TextHashLine, void, undefined> {
  async function* chunks(): AsyncGenerator<Buffer | string, void, undefined> {
    yield* input;
  }
  for await (const batch of byteLines(hashListBytes(chunks(), what), MAX_LINE_BYTES)) {
    for (const raw of batch) {
      const parsed = parseHashLine(raw.bytes, raw.number, raw.length, raw.start, raw.end);
      if (parsed !== undefined) yield textHashLine(parsed);
    }
  }
}

export function textHashLine(line: HashLine): TextHashLine {
  if (line.name === undefined) return { line: line.line, hash: line.hash };
  // `nameCells` gives `{ name }`, or `{ name, nameBase64 }` for a name that is not UTF-8: strings both.
  const cells = nameCells('name', line.name) as Pick<TextHashLine, 'name' | 'nameBase64'>;
  return { line: line.line, hash: line.hash, ...cells };
}
