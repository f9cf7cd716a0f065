import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../src/errors/configuration-error.js';
import { normalizeHash } from '../../../src/hashing/hash-algorithm.js';
import { cacheSecret, MAX_ENTRY_LENGTH, openEntry, sealEntry } from '../../../src/hashscan/cache/sealed-entry.js';
import { interpretScanResponse } from '../../../src/hashscan/interpret-response.js';
import { notDetectedSchema } from '../../../src/hashscan/response-schema.js';
import type { ScanResult } from '../../../src/hashscan/scan-result.js';
import { API_KEY, HIT, MD5, NOT_DETECTED, SHA256 } from '../../helpers/hash-lookup.js';

const SOURCE = 'https://hashscan.test';
const SECRET = cacheSecret(undefined, API_KEY, SOURCE);
const NOW = 1_800_000_000_000;
const context = {
  sourceId: SOURCE,
  secret: SECRET,
  now: NOW,
  notDetected: notDetectedSchema([]),
  redact: (text: string) => text,
};
const query = normalizeHash(SHA256);

function answer(body: unknown, hash = SHA256): ScanResult {
  return interpretScanResponse(
    { status: 200, headers: { get: () => null }, text: JSON.stringify(body), attempt: 1 },
    { query: normalizeHash(hash), notDetected: notDetectedSchema([]), redact: (text) => text },
  );
}

/** An entry with a valid MAC over whatever fields a key holder chose to write. */
function forged(fields: unknown[]): string {
  const payload = JSON.stringify(fields);
  return `hs1.${createHmac('sha256', SECRET).update(`hs1.${payload}`).digest('base64url')}.${payload}`;
}

describe('sealed entries', () => {
  it.each([
    ['a hit', HIT],
    ['a non-detection', NOT_DETECTED],
  ])('round-trips %s to the very result the service answer gave', (_name, body) => {
    const result = answer(body);
    const opened = openEntry(sealEntry(result, SOURCE, SECRET, NOW + 5_000), query, context);
    expect(opened).toEqual({ ok: true, result, remainingMs: 5_000 });
  });

  it('changing any single character makes the entry a miss', () => {
    const sealed = sealEntry(answer(NOT_DETECTED), SOURCE, SECRET, NOW + 5_000);
    fc.assert(
      fc.property(fc.nat(sealed.length - 1), fc.integer({ min: 32, max: 126 }), (index, code) => {
        fc.pre(sealed.charCodeAt(index) !== code);
        const tampered = sealed.slice(0, index) + String.fromCharCode(code) + sealed.slice(index + 1);
        expect(openEntry(tampered, query, context).ok).toBe(false);
      }),
    );
  });

  it.each([
    [
      'another secret',
      () =>
        openEntry(sealEntry(answer(HIT), SOURCE, cacheSecret(undefined, 'other-key', SOURCE), NOW + 1), query, context),
      'bad MAC',
    ],
    [
      'another source',
      () => openEntry(sealEntry(answer(HIT), 'https://other.test', SECRET, NOW + 1), query, context),
      'another source',
    ],
    [
      'an entry copied to another hash',
      () => openEntry(sealEntry(answer(HIT, MD5), SOURCE, SECRET, NOW + 1), query, context),
      'another hash',
    ],
    ['an expired entry', () => openEntry(sealEntry(answer(HIT), SOURCE, SECRET, NOW), query, context), 'expired'],
    [
      'a truncated entry',
      () => openEntry(sealEntry(answer(HIT), SOURCE, SECRET, NOW + 1).slice(0, -3), query, context),
      'bad MAC',
    ],
    ['a number', () => openEntry(42, query, context), 'not a string'],
    ['an object', () => openEntry({ verdict: 'not_detected' }, query, context), 'not a string'],
    ['another format', () => openEntry('{"verdict":"not_detected"}', query, context), 'unknown format'],
    ['a huge value', () => openEntry(`hs1.${'a'.repeat(MAX_ENTRY_LENGTH)}`, query, context), 'too long'],
  ])('ignores %s', (_name, open, reason) => {
    expect(open()).toEqual({ ok: false, reason });
  });

  describe('even with a valid MAC (a key holder wrote it), only what the service would have said', () => {
    it.each([
      [
        'a body with an extra field',
        [SOURCE, SHA256, 'sha256', 'not_detected', NOW + 1, JSON.stringify({ ...NOT_DETECTED, extra: 1 })],
        'not a valid answer',
      ],
      [
        'is_virus as a string',
        [SOURCE, SHA256, 'sha256', 'not_detected', NOW + 1, JSON.stringify({ ...NOT_DETECTED, is_virus: 'false' })],
        'not a valid answer',
      ],
      [
        'a hit body sealed as not_detected',
        [SOURCE, SHA256, 'sha256', 'not_detected', NOW + 1, JSON.stringify(HIT)],
        'verdict does not match the body',
      ],
      ['a body that is not JSON', [SOURCE, SHA256, 'sha256', 'not_detected', NOW + 1, '{'], 'not a valid answer'],
      [
        'a wrong algorithm',
        [SOURCE, SHA256, 'md5', 'not_detected', NOW + 1, JSON.stringify(NOT_DETECTED)],
        'another hash',
      ],
      [
        'an unknown verdict',
        [SOURCE, SHA256, 'sha256', 'clean', NOW + 1, JSON.stringify(NOT_DETECTED)],
        'malformed payload',
      ],
      ['a missing field', [SOURCE, SHA256, 'sha256', 'not_detected', NOW + 1], 'malformed payload'],
    ])('ignores %s', (_name, fields, reason) => {
      expect(openEntry(forged(fields), query, context)).toEqual({ ok: false, reason });
    });

    it('ignores a payload that is not JSON', () => {
      const payload = '[not json';
      const entry = `hs1.${createHmac('sha256', SECRET).update(`hs1.${payload}`).digest('base64url')}.${payload}`;
      expect(openEntry(entry, query, context)).toEqual({ ok: false, reason: 'malformed payload' });
    });

    it('accepts a non-detection with an allowed extra field only when this client allows it too', () => {
      const entry = forged([
        SOURCE,
        SHA256,
        'sha256',
        'not_detected',
        NOW + 1,
        JSON.stringify({ ...NOT_DETECTED, trace: 'x' }),
      ]);
      expect(openEntry(entry, query, context).ok).toBe(false);
      expect(openEntry(entry, query, { ...context, notDetected: notDetectedSchema(['trace']) }).ok).toBe(true);
    });
  });

  describe('cacheSecret', () => {
    it('derives a different default per API key and per source', () => {
      const keys = [
        cacheSecret(undefined, API_KEY, SOURCE),
        cacheSecret(undefined, 'another-key', SOURCE),
        cacheSecret(undefined, API_KEY, 'https://other.test'),
      ].map((key) => Buffer.from(key).toString('hex'));
      expect(new Set(keys).size).toBe(3);
      expect(keys[0]).not.toContain(Buffer.from(API_KEY).toString('hex'));
    });

    it('takes a configured secret of at least 32 bytes, as a string or bytes', () => {
      expect(cacheSecret('s'.repeat(32), API_KEY, SOURCE)).toEqual(new TextEncoder().encode('s'.repeat(32)));
      expect(cacheSecret(new Uint8Array(32).fill(7), API_KEY, SOURCE)).toEqual(new Uint8Array(32).fill(7));
      for (const bad of ['short', new Uint8Array(8), 42, null]) {
        expect(() => cacheSecret(bad as never, API_KEY, SOURCE)).toThrow(ConfigurationError);
      }
    });
  });
});
