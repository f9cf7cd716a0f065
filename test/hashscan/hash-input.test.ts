import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HashScanError } from '../../src/errors/hashscan-error.js';
import { normalizeHash } from '../../src/hashing/hash-algorithm.js';
import { MD5, makeClient, SHA1, SHA256 } from '../helpers/hash-lookup.js';
import { useMswServer } from '../helpers/msw.js';

// No handler is installed: any request would fail the test as unhandled.
useMswServer();

describe('hash input', () => {
  it.each([
    [MD5, 'md5'],
    [SHA1, 'sha1'],
    [SHA256, 'sha256'],
    [SHA256.toUpperCase(), 'sha256'],
    [`${'AbCdEf'.repeat(5)}ab`, 'md5'],
  ])('accepts %s as %s, lower-cased', (input, algorithm) => {
    expect(normalizeHash(input)).toEqual({ hash: input.toLowerCase(), algorithm });
  });

  const invalid: [string, unknown][] = [
    ['empty', ''],
    ['leading space', ` ${SHA256}`],
    ['trailing newline', `${SHA256}\n`],
    ['inner space', `${MD5.slice(0, 16)} ${MD5.slice(16, 31)}`],
    ['algorithm prefix', `sha256:${SHA256}`],
    ['algorithm prefix with dash', `md5-${MD5}`],
    ['0x prefix', `0x${SHA1.slice(2)}`],
    ['colon separators', MD5.match(/../g)?.join(':')],
    ['dash separators', `${MD5.slice(0, 16)}-${MD5.slice(16)}`],
    ['31 digits', MD5.slice(1)],
    ['33 digits', `${MD5}0`],
    ['39 digits', SHA1.slice(1)],
    ['41 digits', `${SHA1}0`],
    ['63 digits', SHA256.slice(1)],
    ['65 digits', `${SHA256}0`],
    ['128 digits (SHA-512)', SHA256 + SHA256],
    ['non-hex letter', `${MD5.slice(0, 31)}g`],
    ['full-width digits', '０'.repeat(32)],
    ['base64 digest', 'J1oCG7+2SJ5U1HGJn32dnWY8aVfsLiosRTiKq7ZR/Q8='],
    ['number', 12345],
    ['null', null],
    ['undefined', undefined],
    ['object', { hash: MD5 }],
  ];

  it.each(invalid)('rejects %s with INVALID_HASH before any request', async (_name, input) => {
    const error = await makeClient()
      .scan(input as string)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HashScanError);
    expect(error).toMatchObject({ code: 'INVALID_HASH', attempts: 0 });
    expect((error as Error).message).toMatch(/32, 40 or 64 hex digits/);
  });

  it('property: exactly the 32/40/64-hex-digit strings are accepted', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFxg: '), maxLength: 70 }), (input) => {
        const valid = /^[0-9a-f]+$/i.test(input) && [32, 40, 64].includes(input.length);
        let accepted = true;
        try {
          expect(normalizeHash(input).hash).toBe(input.toLowerCase());
        } catch (error) {
          expect(error).toBeInstanceOf(HashScanError);
          accepted = false;
        }
        expect(accepted).toBe(valid);
      }),
    );
  });
});
