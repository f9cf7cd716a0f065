import openApiUtil from '@alicloud/openapi-util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SigningError } from '../../src/errors/signing-error.js';
import {
  canonicalQuery,
  computeSignature,
  percentEncode,
  stringToSign,
  verifySignature,
} from '../../src/sms/signing/index.js';

// A CommonJS module with `exports.default`: Node's own ESM loader wraps it once
// more (`.default.default`), vitest's interop does not. Accept either.
type OpenApiUtilClient = typeof openApiUtil.default;
const OpenApiUtil: OpenApiUtilClient =
  (openApiUtil as unknown as { default?: OpenApiUtilClient }).default ?? (openApiUtil as unknown as OpenApiUtilClient);

const UNRESERVED = /^[A-Za-z0-9\-_.~]$/;
const ENCODED = /^(?:[A-Za-z0-9\-_.~]|%[0-9A-F]{2})*$/;

/** Full-range code points, never a lone surrogate. */
const text = fc.string({ unit: 'binary', maxLength: 12 });
const nonEmptyText = fc.string({ unit: 'binary', minLength: 1, maxLength: 12 });
/** Plain objects with arbitrary Unicode keys; `Signature` is where the signature goes. */
const paramMaps = fc
  .dictionary(text, text, { maxKeys: 8 })
  .map((params) => ({ ...params }))
  .filter((params) => !Object.hasOwn(params, 'Signature'));
const nonEmptyParamMaps = paramMaps.filter((params) => Object.keys(params).length > 0);
const methods = fc.constantFrom('GET', 'POST');
const loneSurrogates = fc.constantFrom('\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uD83D');

/** Replaces the code point at `index` (mod length) with `replacement`, or appends it to ''. */
function changeOneCharacter(value: string, index: number, replacement: string): string {
  const chars = Array.from(value);
  if (chars.length === 0) return replacement;
  chars[index % chars.length] = replacement;
  return chars.join('');
}

const oneCodePoint = fc.string({ unit: 'binary', minLength: 1, maxLength: 1 });

/** Pairs of a generated string and a copy with exactly one code point changed (or added to ''). */
function withOneCharacterChanged(
  strings: fc.Arbitrary<string>,
  replacements: fc.Arbitrary<string> = oneCodePoint,
): fc.Arbitrary<readonly [string, string]> {
  return fc
    .tuple(strings, fc.nat(), replacements)
    .map(([original, index, replacement]) => [original, changeOneCharacter(original, index, replacement)] as const)
    .filter(([original, changed]) => original !== changed);
}

function sign(method: string, params: Record<string, string>, secret: string): Record<string, string> {
  return { ...params, Signature: computeSignature(method, params, secret) };
}

function expectSigningError(action: () => unknown, offendingValue: string): SigningError {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(SigningError);
  const error = thrown as SigningError;
  expect(error.code).toBe('INVALID_SIGNING_INPUT');
  expect(error.message).not.toContain(offendingValue);
  return error;
}

describe('sign/verify round trip', () => {
  it('verifies what it signed, for arbitrary Unicode parameters and secrets', () => {
    fc.assert(
      fc.property(methods, paramMaps, nonEmptyText, (method, params, secret) => {
        expect(verifySignature(method, sign(method, params, secret), secret)).toBe(true);
      }),
    );
  });

  it('rejects the signature after a one-character change to any value', () => {
    fc.assert(
      fc.property(
        methods,
        nonEmptyParamMaps,
        nonEmptyText,
        fc.nat(),
        fc.nat(),
        oneCodePoint,
        (method, params, secret, keyIndex, charIndex, replacement) => {
          const signed = sign(method, params, secret);
          const keys = Object.keys(params);
          const key = keys[keyIndex % keys.length] as string;
          const original = params[key] as string;
          const changed = changeOneCharacter(original, charIndex, replacement);
          fc.pre(changed !== original);
          expect(verifySignature(method, { ...signed, [key]: changed }, secret)).toBe(false);
        },
      ),
    );
  });

  it('rejects the signature after a one-character change to the secret', () => {
    fc.assert(
      fc.property(methods, paramMaps, withOneCharacterChanged(nonEmptyText), (method, params, [secret, other]) => {
        expect(verifySignature(method, sign(method, params, secret), other)).toBe(false);
      }),
    );
  });

  it('rejects the signature after a one-character change to the method', () => {
    const upperCaseMethods = fc.stringMatching(/^[A-Z]{1,7}$/);
    const letters = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ');
    fc.assert(
      fc.property(
        withOneCharacterChanged(upperCaseMethods, letters),
        paramMaps,
        nonEmptyText,
        ([method, other], params, secret) => {
          expect(verifySignature(other, sign(method, params, secret), secret)).toBe(false);
        },
      ),
    );
  });

  it('gives GET and POST different signatures for the same parameters', () => {
    fc.assert(
      fc.property(paramMaps, nonEmptyText, (params, secret) => {
        expect(computeSignature('GET', params, secret)).not.toBe(computeSignature('POST', params, secret));
      }),
    );
  });

  it('returns false, without throwing, for a missing, non-string or wrong-length signature', () => {
    const params = { Action: 'SendSms', OutId: '' };
    const signature = computeSignature('POST', params, 'secret');
    expect(verifySignature('POST', params, 'secret')).toBe(false);
    const nonString = { ...params, Signature: 42 } as unknown as Record<string, string>;
    expect(verifySignature('POST', nonString, 'secret')).toBe(false);
    expect(verifySignature('POST', { ...params, Signature: signature.slice(1) }, 'secret')).toBe(false);
    expect(verifySignature('POST', { ...params, Signature: `${signature}=` }, 'secret')).toBe(false);
    expect(verifySignature('POST', { ...params, Signature: '' }, 'secret')).toBe(false);
    expect(verifySignature('POST', { ...params, Signature: signature }, 'secret')).toBe(true);
  });
});

describe('percentEncode', () => {
  it('keeps exactly the unreserved set literal, for every BMP code point', () => {
    // One plain loop and a single assertion: 63k expect() calls would take seconds.
    const wrong: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCharCode(code);
      const encoded = percentEncode(char);
      const expectedShape = UNRESERVED.test(char) ? encoded === char : /^(?:%[0-9A-F]{2})+$/.test(encoded);
      if (!expectedShape || !ENCODED.test(encoded) || decodeURIComponent(encoded) !== char) {
        wrong.push(`U+${code.toString(16).toUpperCase().padStart(4, '0')} -> ${encoded}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('writes space as %20 and the sub-delims encodeURIComponent skips as upper-case hex', () => {
    expect(percentEncode(" !'()*+~")).toBe('%20%21%27%28%29%2A%2B~');
    expect(percentEncode('😀')).toBe('%F0%9F%98%80');
  });

  it('is a reversible encoding into the allowed alphabet, for random strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const encoded = percentEncode(value);
        expect(encoded).toMatch(ENCODED);
        expect(decodeURIComponent(encoded)).toBe(value);
      }),
    );
  });
});

describe('parity with @alicloud/openapi-util', () => {
  // toMap/flatMap there assign with `target[key] = …`, which turns "__proto__" into a prototype.
  const vendorSafeMaps = paramMaps.filter((params) => !Object.hasOwn(params, '__proto__'));

  it('percentEncode matches getEncodeParam', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        expect(percentEncode(value)).toBe(OpenApiUtil.getEncodeParam(value));
      }),
    );
  });

  it('computeSignature matches getRPCSignature', () => {
    fc.assert(
      fc.property(methods, vendorSafeMaps, nonEmptyText, (method, params, secret) => {
        expect(computeSignature(method, params, secret)).toBe(OpenApiUtil.getRPCSignature(params, method, secret));
      }),
    );
  });

  it('the HMAC step matches getROASignature keyed with secret + "&"', () => {
    fc.assert(
      fc.property(methods, paramMaps, nonEmptyText, (method, params, secret) => {
        expect(computeSignature(method, params, secret)).toBe(
          OpenApiUtil.getROASignature(stringToSign(method, params), `${secret}&`),
        );
      }),
    );
  });
});

describe('canonicalQuery', () => {
  it('sorts keys by UTF-16 code unit, not by locale', () => {
    const params = { '\uFF21': '6', '😀': '5', Ä: '4', aLowerKey: '3', ZKey: '2', Action: '1' };
    expect(canonicalQuery(params)).toBe('Action=1&ZKey=2&aLowerKey=3&%C3%84=4&%F0%9F%98%80=5&%EF%BC%A1=6');
    // A locale-aware sort would interleave cases and put U+FF21 before the emoji.
    const localeOrder = Object.keys(params).sort((a, b) => a.localeCompare(b));
    expect(localeOrder).not.toEqual(['Action', 'ZKey', 'aLowerKey', 'Ä', '😀', '\uFF21']);
  });

  it('emits keys in ascending code-unit order, for random keys', () => {
    fc.assert(
      fc.property(paramMaps, (params) => {
        const query = canonicalQuery(params);
        const keys =
          query === '' ? [] : query.split('&').map((pair) => decodeURIComponent(pair.split('=')[0] as string));
        expect(keys).toEqual(Object.keys(params).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      }),
    );
  });

  it('skips Signature and keeps empty values', () => {
    expect(canonicalQuery({ Signature: 'abc', OutId: '', Action: 'SendSms' })).toBe('Action=SendSms&OutId=');
  });
});

describe('unsignable input', () => {
  const safeText = fc.string({ unit: 'grapheme-ascii', minLength: 4, maxLength: 12 });

  it('rejects a lone surrogate in a value with SigningError naming the key', () => {
    fc.assert(
      fc.property(safeText, loneSurrogates, safeText, (before, surrogate, after) => {
        const value = `${before}${surrogate}${after}`;
        expect(() => percentEncode(value)).toThrow(SigningError);
        const error = expectSigningError(
          () => computeSignature('POST', { Action: 'SendSms', TemplateParam: value }, 'secret'),
          value,
        );
        expect(error.parameter).toBe('TemplateParam');
        expect(error.message).toContain('TemplateParam');
        expect(error).not.toBeInstanceOf(URIError);
      }),
    );
  });

  it('rejects a lone surrogate in a key or in the secret', () => {
    const key = 'Key\uD800';
    const error = expectSigningError(() => canonicalQuery({ [key]: 'v' }), key);
    expect(error.parameter).toBe('Key\\ud800');
    expectSigningError(() => computeSignature('GET', { A: 'b' }, 'sec\uDC00ret'), 'sec\uDC00ret');
    expectSigningError(() => verifySignature('GET', { A: '\uDC00', Signature: 'x' }, 'secret'), '\uDC00');
  });

  it('rejects non-string values with SigningError naming the key', () => {
    for (const value of [987654321, null, undefined, true, { secret: 'hunter2' }, ['hunter2']]) {
      const params = { Action: 'SendSms', OutId: value } as unknown as Record<string, string>;
      // The message may name the type ("got null") but never a value's content.
      const error = expectSigningError(
        () => canonicalQuery(params),
        typeof value === 'number' ? String(value) : 'hunter2',
      );
      expect(error.parameter).toBe('OutId');
      expect(error.message).toContain('OutId');
    }
  });

  it('rejects an empty or non-string secret without echoing it', () => {
    expectSigningError(() => computeSignature('GET', { A: 'b' }, ''), 'secret-value');
    const notAString = 12345678 as unknown as string;
    expectSigningError(() => computeSignature('GET', { A: 'b' }, notAString), '12345678');
  });

  it('rejects a method that is not an upper-case token', () => {
    for (const method of ['get', 'Post', '', 'GET ', 'PO-ST', '\u00C4']) {
      expectSigningError(() => stringToSign(method, { A: 'b' }), 'never-in-message');
    }
    expect(() => stringToSign(undefined as unknown as string, { A: 'b' })).toThrow(SigningError);
  });

  it('rejects a params argument that is not an object', () => {
    expectSigningError(() => canonicalQuery(null as unknown as Record<string, string>), 'null');
  });
});
