/**
 * Every spelling a secret can take once another program has written it out:
 * raw; percent-encoded (upper- or lower-case hex, once or twice, `+` for a
 * space as in forms); JSON-escaped (`\/` as PHP writes it, `\u002B` as .NET
 * does, `\u002b`, a surrogate pair); and any mix of these, character by
 * character, since encoders differ in which characters they escape. Letters
 * and digits are matched only as themselves: no encoder escapes them.
 * @module
 */

/** `text` as a regular expression source matching itself. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A hex digit in either case (`[bB]`), a decimal digit as itself. */
const hexDigit = (digit: string): string => (/[A-F]/.test(digit) ? `[${digit}${digit.toLowerCase()}]` : digit);

/** `00` → `00`, `2B` → `2[bB]`. */
const hex = (value: number, width: number): string =>
  [...value.toString(16).toUpperCase().padStart(width, '0')].map(hexDigit).join('');

/** `\u002B` in either case, as a JSON writer escapes one UTF-16 code unit. */
const jsonUnit = (unit: number): string => `\\\\u${hex(unit, 4)}`;

/** JSON's two-character escapes (RFC 8259 §7), besides `\uXXXX`. */
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\\\"',
  '\\': '\\\\\\\\',
  '/': '\\\\/',
  '\b': '\\\\b',
  '\f': '\\\\f',
  '\n': '\\\\n',
  '\r': '\\\\r',
  '\t': '\\\\t',
};

const UTF8 = new TextEncoder();

/** The regular expression source matching every spelling of one character (a code point). */
function characterSpellings(char: string): string {
  if (/^[A-Za-z0-9]$/.test(char)) return char;
  const forms: string[] = [];
  // Percent-encoded (its `%` itself JSON-escaped or encoded once more); a lone surrogate has no UTF-8 form.
  if (char.isWellFormed()) {
    forms.push([...UTF8.encode(char)].map((byte) => `(?:%|\\\\u0025)(?:25)?${hex(byte, 2)}`).join(''));
  }
  // A character beyond the BMP is escaped as its surrogate pair.
  forms.push([...Array(char.length).keys()].map((i) => jsonUnit(char.charCodeAt(i))).join(''));
  const short = SHORT_ESCAPES[char];
  if (short !== undefined) forms.push(short);
  if (char === ' ') forms.push('\\+');
  // The character itself last: alternatives are tried in order, and `%` must not stop short of `%25`.
  forms.push(escapeRegExp(char));
  return `(?:${forms.join('|')})`;
}

/** One pattern matching every spelling of every secret, longest first; `undefined` when there is none. */
export function secretPattern(secrets: readonly string[], minLength: number): RegExp | undefined {
  const sources = secrets
    .filter((secret) => secret.length >= minLength)
    .sort((a, b) => b.length - a.length)
    .map((secret) => [...secret].map(characterSpellings).join(''));
  return sources.length > 0 ? new RegExp([...new Set(sources)].join('|'), 'g') : undefined;
}
