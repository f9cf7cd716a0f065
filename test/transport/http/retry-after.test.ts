import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from '../../../src/transport/http/retry-after.js';
import { json, makeClient, SHA256, serveLookup } from '../../helpers/hash-lookup.js';
import { useMswServer } from '../../helpers/msw.js';

const server = useMswServer();
const now = Date.parse('2026-01-01T00:00:00Z');

describe('a huge Retry-After stays a finite, documented number', () => {
  it.each([
    ['400 nines (Infinity before)', '9'.repeat(400), MAX_RETRY_AFTER_MS],
    ['1e20 seconds (1e23 ms before)', '99999999999999999999', MAX_RETRY_AFTER_MS],
    ['one day and a second', '86401', MAX_RETRY_AFTER_MS],
    ['one day', '86400', 86_400_000],
    ['a date in the year 9999', 'Fri, 31 Dec 9999 23:59:59 GMT', MAX_RETRY_AFTER_MS],
  ])('%s', (_name, header, expected) => {
    const parsed = parseRetryAfter(header, now);
    expect(parsed).toBe(expected);
    expect(Number.isSafeInteger(parsed)).toBe(true);
  });

  it('is one day', () => expect(MAX_RETRY_AFTER_MS).toBe(24 * 60 * 60 * 1000));

  it('reaches HashScanError.retryAfterMs capped, and is not waited for', async () => {
    const requests = serveLookup(server, () => json({}, 503, { 'retry-after': '1'.repeat(400) }));
    const error = await makeClient()
      .scan(SHA256)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 503, retryAfterMs: MAX_RETRY_AFTER_MS });
    expect(requests).toHaveLength(1);
  });
});
