import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { HashScanError } from '../../src/errors/hashscan-error.js';
import { makeClient, NOT_DETECTED, SHA256, serveLookup } from '../helpers/hash-lookup.js';
import { useMswServer } from '../helpers/msw.js';

// Bodies that JSON.parse reads as a harmless non-detection, or cannot read at all.

const server = useMswServer();

/** Serves `text` as a 200 JSON answer, scans once, returns the result or the error. */
async function scanText(text: string, options = {}): Promise<unknown> {
  const requests = serveLookup(
    server,
    () => new HttpResponse(text, { status: 200, headers: { 'content-type': 'application/json' } }),
  );
  const outcome = await makeClient({ retry: false, ...options })
    .scan(SHA256)
    .then(
      (result) => result,
      (error: unknown) => error,
    );
  expect(requests).toHaveLength(1);
  return outcome;
}

async function scanError(text: string, options = {}): Promise<HashScanError> {
  const outcome = await scanText(text, options);
  expect(outcome).toBeInstanceOf(HashScanError);
  return outcome as HashScanError;
}

const MESSAGE = '"message":"No active service detected this file"';

describe('repeated keys', () => {
  it.each([
    ['is_virus false twice', `{"status":"success","is_virus":false,"is_virus":false,${MESSAGE}}`, 'is_virus'],
    ['status twice', `{"status":"error","status":"success","is_virus":false,${MESSAGE}}`, 'status'],
    ['message twice', `{"status":"success","is_virus":false,${MESSAGE},${MESSAGE}}`, 'message'],
    ['status twice on a hit, one not success', '{"status":"error","status":"success","is_virus":true}', 'status'],
    [
      'a nested key in an allowed field',
      `{"status":"success","is_virus":false,${MESSAGE},"note":{"a":1,"a":2}}`,
      'note.a',
    ],
  ])('%s is INVALID_RESPONSE naming the field, never not_detected', async (_name, text, field) => {
    const error = await scanError(text, { allowedExtraFields: ['note'] });
    expect(error.code).toBe('INVALID_RESPONSE');
    expect(error.issues).toEqual([`${field}: repeated field`]);
  });

  it.each([
    ['true then false', '{"status":"success","is_virus":true,"is_virus":false,"message":"x"}'],
    ['false then true', '{"status":"success","is_virus":false,"is_virus":true,"message":"x"}'],
  ])('a hit stays a hit: is_virus %s is malicious with the repetition as an anomaly', async (_name, text) => {
    const result = await scanText(text);
    expect(result).toMatchObject({ verdict: 'malicious', hash: SHA256 });
    expect((result as { anomalies: string[] }).anomalies).toContain('is_virus: repeated field');
  });

  it('lists at most a few repetitions of a body that repeats thousands', async () => {
    const pairs = Array.from({ length: 5000 }, (_, index) => `,"k${index}":1,"k${index}":1`).join('');
    const error = await scanError(`{"status":"success","is_virus":false,${MESSAGE}${pairs}}`);
    expect(error.code).toBe('INVALID_RESPONSE');
    expect(error.issues).toHaveLength(9);
    expect(error.issues?.[0]).toBe('k0: repeated field');
    expect(error.issues?.at(-1)).toBe('4992 more repeated fields');
  });
});

describe('prototype keys are ordinary fields', () => {
  it.each([
    ['__proto__', '{"is_virus":true}'],
    ['__proto__', 'null'],
    ['__proto__', '{}'],
    ['constructor', '{"prototype":{}}'],
    ['prototype', '{"is_virus":true}'],
  ])('a non-detection with an extra %s: %s is INVALID_RESPONSE', async (key, value) => {
    const error = await scanError(`{"status":"success","is_virus":false,${MESSAGE},"${key}":${value}}`);
    expect(error.code).toBe('INVALID_RESPONSE');
    expect(error.issues).toEqual([`unexpected field ${key}`]);
  });

  it('a hit with a __proto__ member keeps it in raw and reports it as an anomaly', async () => {
    const result = await scanText('{"status":"success","is_virus":true,"__proto__":{"source":"x"}}');
    expect(result).toMatchObject({ verdict: 'malicious', source: undefined });
    const { raw, anomalies } = result as { raw: Record<string, unknown>; anomalies: string[] };
    expect(Object.keys(raw)).toContain('__proto__');
    expect(anomalies).toContain('unexpected field __proto__');
  });
});

describe('deep nesting', () => {
  it.each([
    ['top level', '['.repeat(50_000) + ']'.repeat(50_000)],
    ['inside message', `{"status":"success","is_virus":false,"message":${'['.repeat(50_000)}${']'.repeat(50_000)}}`],
    ['unclosed', `{"status":"success","is_virus":true,"data":${'{"a":'.repeat(50_000)}`],
  ])('%s rejects INVALID_RESPONSE, never a RangeError', async (_name, text) => {
    const error = await scanError(text);
    expect(error.code).toBe('INVALID_RESPONSE');
    expect(error.message).toMatch(/nested deeper than 512 levels/);
    expect(error.body?.length).toBeLessThanOrEqual(512);
  });

  it('a body nested 100 levels deep in an allowed field is read and frozen all the way down', async () => {
    const note = `${'{"n":'.repeat(100)}1${'}'.repeat(100)}`;
    const result = await scanText(`{"status":"success","is_virus":false,${MESSAGE},"note":${note}}`, {
      allowedExtraFields: ['note'],
    });
    expect(result).toMatchObject({ verdict: 'not_detected', message: NOT_DETECTED.message });
    let inner: unknown = (result as { raw: unknown }).raw;
    for (let level = 0; level <= 100; level += 1) {
      expect(Object.isFrozen(inner)).toBe(true);
      inner = level === 0 ? (inner as Record<string, unknown>).note : (inner as Record<string, unknown>).n;
    }
    expect(inner).toBe(1);
  });
});
