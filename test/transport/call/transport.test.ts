import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, redactError } from '../../../src/secrets/redact.js';
import { DEFAULT_RETRY, resolveRetry, retryDelay } from '../../../src/transport/call/retry-options.js';
import { classifyNetworkFailure } from '../../../src/transport/http/network-failure.js';
import { parseRetryAfter } from '../../../src/transport/http/retry-after.js';
import { VERSION } from '../../../src/version.js';

describe('retryDelay', () => {
  it('grows exponentially with equal jitter, capped at maxDelayMs', () => {
    const retry = { retries: 5, minDelayMs: 100, maxDelayMs: 1_000 };
    expect(retryDelay(0, undefined, retry, () => 0)).toBe(50);
    expect(retryDelay(0, undefined, retry, () => 1)).toBe(100);
    expect(retryDelay(1, undefined, retry, () => 1)).toBe(200);
    expect(retryDelay(2, undefined, retry, () => 0)).toBe(200);
    expect(retryDelay(10, undefined, retry, () => 1)).toBe(1_000);
  });

  it('waits at least what Retry-After asks, and gives up when it asks for more than maxDelayMs', () => {
    const retry = { retries: 5, minDelayMs: 100, maxDelayMs: 1_000 };
    expect(retryDelay(0, 700, retry, () => 0)).toBe(700);
    expect(retryDelay(0, 0, retry, () => 1)).toBe(100);
    expect(retryDelay(0, 1_001, retry, () => 0)).toBeUndefined();
  });

  it('property: always within [0, maxDelayMs]', () => {
    fc.assert(
      fc.property(
        fc.nat(30),
        fc.option(fc.nat(20_000), { nil: undefined }),
        fc.nat(5_000),
        fc.nat(10_000),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (done, after, min, extra, random) => {
          const retry = { retries: 3, minDelayMs: min, maxDelayMs: min + extra };
          const delay = retryDelay(done, after, retry, () => random);
          if (delay === undefined) expect(after).toBeGreaterThan(retry.maxDelayMs);
          else {
            expect(delay).toBeGreaterThanOrEqual(0);
            expect(delay).toBeLessThanOrEqual(retry.maxDelayMs);
            if (after !== undefined) expect(delay).toBeGreaterThanOrEqual(after);
          }
        },
      ),
    );
  });

  it('resolves defaults and false', () => {
    expect(resolveRetry(undefined)).toEqual(DEFAULT_RETRY);
    expect(DEFAULT_RETRY).toEqual({ retries: 2, minDelayMs: 500, maxDelayMs: 8_000 });
    expect(resolveRetry(false).retries).toBe(0);
    expect(resolveRetry({ retries: 4 })).toEqual({ ...DEFAULT_RETRY, retries: 4 });
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it.each([
    ['5', 5_000],
    [' 0 ', 0],
    ['Thu, 01 Jan 2026 00:00:10 GMT', 10_000],
    ['Wed, 31 Dec 2025 23:59:00 GMT', 0],
    ['soon', undefined],
    ['-1', undefined],
    ['1.5', undefined],
    ['', undefined],
  ])('%j → %s', (header, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });
  it('null → undefined', () => expect(parseRetryAfter(null, now)).toBeUndefined());
});

describe('classifyNetworkFailure', () => {
  const fetchFailed = (code?: string) =>
    new TypeError('fetch failed', { cause: Object.assign(new Error('boom'), code ? { code } : {}) });
  it.each([
    ['ENOTFOUND', 'connect', 'DNS'],
    ['EAI_AGAIN', 'connect', 'DNS'],
    ['ECONNREFUSED', 'connect', 'connection failed'],
    ['UND_ERR_CONNECT_TIMEOUT', 'connect', 'connection failed'],
    ['CERT_HAS_EXPIRED', 'connect', 'TLS'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'connect', 'TLS'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'connect', 'TLS'],
    ['ECONNRESET', 'unknown', 'connection lost'],
    ['UND_ERR_SOCKET', 'unknown', 'connection lost'],
    [undefined, 'unknown', 'network error (boom)'],
  ])('%s → %s', (code, phase, description) => {
    const failure = classifyNetworkFailure(fetchFailed(code));
    expect(failure.phase).toBe(phase);
    expect(failure.description).toContain(description);
    expect(failure.systemCode).toBe(code);
  });
});

describe('redaction', () => {
  const redact = createRedactor({
    secrets: ['s3cr3t/+&= key'],
    params: { api_key: 'full', Signature: 'full', AccessKeyId: 'partial' },
  });

  it('masks secrets raw and URL- or form-encoded, and named parameters', () => {
    expect(redact('key s3cr3t/+&= key here')).toBe('key *** here');
    expect(redact(`x=${encodeURIComponent('s3cr3t/+&= key')}`)).toBe('x=***');
    expect(redact(`x=${new URLSearchParams({ a: 's3cr3t/+&= key' }).toString().slice(2)}`)).toBe('x=***');
    expect(redact('https://h/p?api_key=abc&hash=1')).toBe('https://h/p?api_key=***&hash=1');
    expect(redact('Signature=zJDF%2BLrz&AccessKeyId=LTAI5tAbCdEfGh')).toBe('Signature=***&AccessKeyId=LTAI***');
    expect(redact('AccessKeyId=short')).toBe('AccessKeyId=***');
  });

  it('copies an error chain with redacted messages and stacks, keeping codes', () => {
    const inner = Object.assign(new Error('connect to ?api_key=abc failed'), { code: 'ECONNRESET' });
    const outer = new TypeError('fetch https://h/?api_key=abc failed', { cause: inner });
    const copy = redactError(outer, redact);
    expect(copy.name).toBe('TypeError');
    expect(copy.message).toBe('fetch https://h/?api_key=*** failed');
    expect(copy.stack).not.toContain('abc');
    expect((copy.cause as Error & { code: string }).code).toBe('ECONNRESET');
    expect((copy.cause as Error).message).toBe('connect to ?api_key=*** failed');
  });
});

describe('version', () => {
  it('matches package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(VERSION).toBe(pkg.version);
  });
});
