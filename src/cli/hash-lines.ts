import { createReadStream } from 'node:fs';
import { byteLines, NUL_RECORDS, TEXT_LINES } from './input/byte-lines.js';
import { type RefusedEncoding, withoutByteOrderMark } from './input/byte-order-mark.js';
import { hashLikeField, isSpace, unescapeName } from './input/sum-fields.js';
import { nameCells, nameText } from './names.js';
import { UsageError } from './usage-error.js';

/** Longest line taken as a hash line (a hash, two spaces, a path of up to `PATH_MAX` bytes, with room to spare). */
export const MAX_LINE_BYTES = 8 * 1024;

/** Why a line is not looked up: reported as its own row (review), with a message naming the line. */
interface LineProblem {
  /**
   * `LINE_TOO_LONG`: over {@link MAX_LINE_BYTES}; `SECOND_HASH`: another
   * hash-like field after the first (a space, a tab or a CR between them);
   * `CARRIAGE_RETURN`: a CR inside a line (a list with old Mac line ends
   * reads as one line); `BAD_ESCAPE`: a name after a leading `\` with an
   * escape coreutils does not write.
   */
  readonly code: 'LINE_TOO_LONG' | 'SECOND_HASH' | 'CARRIAGE_RETURN' | 'BAD_ESCAPE';
  readonly message: string;
}

/** One hash of the input, with where it came from. */
export interface HashLine {
  /** 1-based line number in the input (for arguments: their position). */
  readonly line: number;
  /** The hash as written (checked by the client, not here); for an over-long line, its start, cut. */
  readonly hash: string;
  /** The file name after the hash, when the line is `sha256sum` output (`<hash>  <name>`): bytes, as names are. */
  readonly name?: Buffer;
  /** Set on a line that is not looked up: why. */
  readonly invalid?: LineProblem;
}

/** How a line was cut: by `\n` (a CR inside it is refused), or by NUL (`sha256sum -z`: a name may hold CR and LF). */
export type LineMode = 'text' | 'nul';

/** Bytes of an over-long line shown in its result (the rest is cut). */
const SHOWN_OF_OVERLONG = 80;
const RETURN = 0x0d;
const BACKSLASH = 0x5c;
const SPACE = 0x20;
const STAR = 0x2a;

/**
 * Parses one line: blank lines and `#` comments give `undefined`; otherwise
 * the first word is the hash, and anything after it a file name, so the
 * output of `sha256sum`/`md5sum` works as input: `<hash>  <name>` and
 * `<hash> *<name>` take the name exactly as written; a leading `\` says the
 * name is escaped (`\\`, `\n`, `\r`). Any other separator (one space, a
 * tab) takes the rest, trimmed. The name stays bytes. A line is never looked
 * up (`invalid`, see {@link LineProblem}) when cut by the reader (`length`
 * beyond its bytes), when it holds a second hash-like field, a CR (in
 * `text` mode), or an escape coreutils does not write.
 */
export function parseHashLine(
  text: Buffer | string,
  line: number,
  length?: number,
  from = 0,
  to?: number,
  mode: LineMode = 'text',
): HashLine | undefined {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  let start = from;
  const last = to ?? bytes.length;
  let end = last;
  if (length !== undefined && length > end - start) {
    const shown = nameText(bytes.subarray(start, Math.min(end, start + SHOWN_OF_OVERLONG)));
    const message = `line ${line} is ${length} bytes long, more than ${MAX_LINE_BYTES}: not looked up`;
    return { line, hash: `${shown}…`, invalid: { code: 'LINE_TOO_LONG', message } };
  }
  while (start < end && isSpace(bytes[start])) start += 1;
  while (end > start && isSpace(bytes[end - 1])) end -= 1;
  if (start === end || bytes[start] === 0x23) return undefined;
  const escaped = bytes[start] === BACKSLASH;
  if (escaped) start += 1;
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
  const refuse = (code: LineProblem['code'], message: string): HashLine => ({
    line,
    hash,
    invalid: { code, message: `line ${line} ${message}: not looked up` },
  });
  if (mode === 'text') {
    if (holds(bytes, from, last, RETURN))
      return refuse(
        'CARRIAGE_RETURN',
        'holds a carriage return (CR) inside it (a list with CR line ends, or a name with a CR: list those with `sha256sum -z` and `lookup -0`)',
      );
  }
  if (hashLikeField(bytes, word, end) !== undefined)
    return refuse(
      'SECOND_HASH',
      'holds a second hash after the first: one hash per line (a file whose name is a hash: list it as ./NAME)',
    );
  let name: number;
  let stop = end;
  if (bytes[word] === SPACE && (bytes[word + 1] === SPACE || bytes[word + 1] === STAR)) {
    // `sha256sum` output: the name is everything after its two-byte separator, white space included.
    name = word + 2;
    stop = last;
  } else {
    name = word;
    while (name < end && isSpace(bytes[name])) name += 1;
    if (bytes[name] === STAR) name += 1; // `*`: binary mode in sha256sum's output
  }
  if (name >= stop) return { line, hash };
  // A copy: the line is in the chunk read, and the name lives until its result is printed.
  const written = Buffer.from(bytes.subarray(name, stop));
  if (!escaped) return { line, hash, name: written };
  const unescaped = unescapeName(written);
  if (unescaped === undefined)
    return refuse(
      'BAD_ESCAPE',
      String.raw`starts with \ (an escaped name) but its name holds an escape other than \\, \n or \r`,
    );
  return { line, hash, name: unescaped };
}

/** Whether `bytes[from, to)` holds `byte` (a loop: a view and `includes` per line cost several times more). */
function holds(bytes: Buffer, from: number, to: number, byte: number): boolean {
  for (let i = from; i < to; i += 1) if (bytes[i] === byte) return true;
  return false;
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
  /** Why the line is not one hash (read by the producer only: never queued). */
  readonly invalid?: LineProblem;
}

/**
 * The hash lines of `input`, read as bytes in bounded memory (an over-long line keeps its cut start as hash);
 * `mode` `nul` cuts them at NUL bytes (`sha256sum -z`), as a local `lookup -0` does.
 */
export async function* readTextHashLines(
  input: AsyncIterable<Buffer | string> | Iterable<Buffer>,
  what = 'the input',
  mode: LineMode = 'text',
): AsyncGenerator<TextHashLine, void, undefined> {
  async function* chunks(): AsyncGenerator<Buffer | string, void, undefined> {
    yield* input;
  }
  const split = mode === 'nul' ? NUL_RECORDS : TEXT_LINES;
  for await (const batch of byteLines(hashListBytes(chunks(), what), MAX_LINE_BYTES, undefined, split)) {
    for (const raw of batch) {
      const parsed = parseHashLine(raw.bytes, raw.number, raw.length, raw.start, raw.end, mode);
      if (parsed !== undefined) yield textHashLine(parsed);
    }
  }
}

export function textHashLine(line: HashLine): TextHashLine {
  const invalid = line.invalid === undefined ? {} : { invalid: line.invalid };
  if (line.name === undefined) return { line: line.line, hash: line.hash, ...invalid };
  // `nameCells` gives `{ name }`, or `{ name, nameBase64 }` for a name that is not UTF-8: strings both.
  const cells = nameCells('name', line.name) as Pick<TextHashLine, 'name' | 'nameBase64'>;
  return { line: line.line, hash: line.hash, ...cells, ...invalid };
}
