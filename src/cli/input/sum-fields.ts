/**
 * The fields of a `sha256sum` / `md5sum` line, read as bytes: white space,
 * a field that looks like a hash, and GNU coreutils' file name escapes.
 * Without `--zero`, coreutils starts a line with `\` when the name holds a
 * backslash, a newline or (coreutils 9) a carriage return, and writes them
 * `\\`, `\n` and `\r` in the name.
 */

const BACKSLASH = 0x5c;
const STAR = 0x2a;

/** ASCII white space, as `\s` would match it in a line of bytes (space, tab, LF, VT, FF, CR). */
export function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || (byte !== undefined && byte >= 0x09 && byte <= 0x0d);
}

function isHexDigit(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);
}

/** Whether `bytes[start, end)` is 32, 40 or 64 hex digits: an MD5, SHA-1 or SHA-256 as written. */
function isHashLike(bytes: Buffer, start: number, end: number): boolean {
  const length = end - start;
  if (length !== 32 && length !== 40 && length !== 64) return false;
  for (let i = start; i < end; i += 1) if (!isHexDigit(bytes[i] as number)) return false;
  return true;
}

/**
 * The first field of `bytes[from, to)` (fields split on white space, a
 * field's leading `*` dropped) that looks like a hash, as `[start, end)`;
 * `undefined` when none does. A second hash on a line (after a space, a tab
 * or a lone CR) is never taken for the first one's file name.
 */
export function hashLikeField(bytes: Buffer, from: number, to: number): readonly [number, number] | undefined {
  let i = from;
  while (i < to) {
    while (i < to && isSpace(bytes[i])) i += 1;
    let start = i;
    while (i < to && !isSpace(bytes[i])) i += 1;
    if (bytes[start] === STAR && start < i) start += 1;
    if (start < i && isHashLike(bytes, start, i)) return [start, i];
  }
  return undefined;
}

/** The escapes coreutils writes in a name, by the byte after the backslash. */
const ESCAPES: ReadonlyMap<number, number> = new Map([
  [BACKSLASH, BACKSLASH],
  [0x6e, 0x0a], // \n
  [0x72, 0x0d], // \r (coreutils 9)
]);

/** A name as coreutils escaped it, unescaped; `undefined` for any other escape, or a backslash at its end. */
export function unescapeName(name: Buffer): Buffer | undefined {
  if (!name.includes(BACKSLASH)) return name;
  const out = Buffer.allocUnsafe(name.length);
  let length = 0;
  for (let i = 0; i < name.length; i += 1) {
    const byte = name[i] as number;
    if (byte !== BACKSLASH) {
      out[length++] = byte;
      continue;
    }
    const escaped = ESCAPES.get(name[i + 1] as number);
    if (escaped === undefined) return undefined;
    out[length++] = escaped;
    i += 1;
  }
  return Buffer.from(out.subarray(0, length));
}
