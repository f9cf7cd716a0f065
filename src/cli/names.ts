/**
 * File names as the CLI prints them. A name is bytes: the operating system
 * does not promise UTF-8, and a name that is not valid UTF-8 does not
 * survive a round trip through a JS string. So the CLI walks, opens and
 * reports names as Buffers, and prints them in two forms:
 *
 * - `path` (or `name`): the name as text; each byte that is not part of
 *   valid UTF-8 is written `\xNN`;
 * - `pathBase64` (or `nameBase64`): the exact bytes, present only when the
 *   name is not valid UTF-8 (so `path` is not the name itself).
 *
 * Printed on a terminal (table, stderr), control characters are escaped
 * too: a name must never drive the terminal.
 */
import { isUtf8 } from 'node:buffer';
import type { Row } from './output/row.js';

/** Length of the UTF-8 sequence a lead byte starts (1 for a stray byte). */
function sequenceLength(lead: number): number {
  if (lead < 0xc2) return 1;
  if (lead < 0xe0) return 2;
  if (lead < 0xf0) return 3;
  return lead < 0xf5 ? 4 : 1;
}

/** The name as text, every byte outside valid UTF-8 written `\xNN`. */
export function nameText(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  let text = '';
  let start = 0;
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    const length = sequenceLength(lead);
    if (length > 1 && i + length <= bytes.length && isUtf8(bytes.subarray(i, i + length))) {
      i += length;
      continue;
    }
    text += `${bytes.toString('utf8', start, i)}\\x${lead.toString(16).padStart(2, '0')}`;
    i += 1;
    start = i;
  }
  return text + bytes.toString('utf8', start);
}

/** The cells of one name: `{ path }` when it is valid UTF-8, else `{ path, pathBase64 }`. */
export function nameCells(key: 'path' | 'name', name: Buffer | string): Row {
  if (typeof name === 'string') return { [key]: name };
  if (isUtf8(name)) return { [key]: name.toString('utf8') };
  return { [key]: nameText(name), [`${key}Base64`]: name.toString('base64') };
}

/**
 * Text made safe for a terminal: C0/C1 controls and DEL written `\xNN`
 * (terminal escapes in a hostile file name), for stderr notices and the table.
 */
export function printable(value: string | number | undefined): string {
  if (value === undefined) return '';
  const text = typeof value === 'number' ? `${value}` : value;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** A name for a message on stderr: its text, escaped for the terminal. */
export function shownName(name: Buffer | string): string {
  return printable(typeof name === 'string' ? name : nameText(name));
}
