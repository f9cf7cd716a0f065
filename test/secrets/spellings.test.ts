import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/secrets/redact.js';

/** How one encoder may write one character of a secret. */
type Style = 'raw' | 'percent' | 'percent-lower' | 'percent-twice' | 'json' | 'json-lower' | 'json-short';

const UTF8 = new TextEncoder();
const hexOf = (n: number, width: number): string => n.toString(16).toUpperCase().padStart(width, '0');

/** One character as an encoder of `style` writes it (letters and digits always as themselves). */
function spell(char: string, style: Style): string {
  if (/^[A-Za-z0-9]$/.test(char)) return char;
  const percent = [...UTF8.encode(char)].map((byte) => `%${hexOf(byte, 2)}`).join('');
  const json = [...Array(char.length).keys()].map((i) => `\\u${hexOf(char.charCodeAt(i), 4)}`).join('');
  switch (style) {
    case 'raw':
      return char;
    case 'percent':
      return percent;
    case 'percent-lower':
      return percent.toLowerCase();
    case 'percent-twice':
      return percent.replaceAll('%', '%25');
    case 'json':
      return json;
    case 'json-lower':
      return json.toLowerCase();
    case 'json-short':
      return char === '/' ? '\\/' : JSON.stringify(char).slice(1, -1);
  }
}

const STYLES: readonly Style[] = [
  'raw',
  'percent',
  'percent-lower',
  'percent-twice',
  'json',
  'json-lower',
  'json-short',
];
// Base64 and base64url keys, and a few characters a key may hold besides; never `<` or `>`, the test's fences.
const CHARS = [...'ABCXYZabcxyz0189+/=-_.~!*\'()%& "\\', 'é', '€', '😀'];
const secret = fc.array(fc.constantFrom(...CHARS), { minLength: 4, maxLength: 24 }).map((chars) => chars.join(''));

describe('secret spellings', () => {
  it('masks a secret however an encoder spelt each of its characters, and nothing around it', () => {
    fc.assert(
      fc.property(secret, fc.array(fc.constantFrom(...STYLES), { minLength: 24, maxLength: 24 }), (key, styles) => {
        const spelt = [...key].map((char, i) => spell(char, styles[i] ?? 'raw')).join('');
        const redact = createRedactor({ secrets: [key], params: {} });
        expect(redact(`<${spelt}> and <${key}>`)).toBe('<***> and <***>');
      }),
    );
  });

  it('masks the spellings of PHP, .NET and URL encoders of a base64 key', () => {
    const key = 'k3y/Pl+s==';
    const redact = createRedactor({ secrets: [key], params: {} });
    for (const text of [
      JSON.stringify({ key }).replaceAll('/', '\\/'), // PHP json_encode
      JSON.stringify({ key }).replaceAll('+', '\\u002B').replaceAll('=', '\\u003D'), // .NET System.Text.Json
      `?k=${encodeURIComponent(key)}`,
      `?k=${encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (byte) => byte.toLowerCase())}`,
      new URLSearchParams({ k: key }).toString(),
    ]) {
      expect(redact(text)).not.toContain('k3y');
      expect(redact(text)).toContain('***');
    }
  });

  it('leaves other text alone', () => {
    const redact = createRedactor({ secrets: ['k3y/Pl+s=='], params: {} });
    for (const text of ['k3y/Pl s==', 'k3y%2FPl%2Bs%3D', 'k3y\\u002FPl\\u002Bs', 'K3Y/PL+S=='])
      expect(redact(text)).toBe(text);
  });
});
