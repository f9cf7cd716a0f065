/**
 * How to unit-test your own code that uses HashScanClient: mock the service
 * with msw and `createHashScanHandlers`, including its failure modes, and
 * assert that your code fails closed. Run: `npx vitest run examples/user-code.test.ts`.
 */
import { decide, HashScanClient, type HashScanError } from 'hashscan-sms';
import { createHashScanHandlers, recordFor } from 'hashscan-sms/testing';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// --- your application code -------------------------------------------------
/** Decides whether a stored attachment may be shared. */
async function canShare(scanner: HashScanClient, sha256: string): Promise<boolean> {
  const outcome = await scanner
    .scan(sha256)
    .catch((error: HashScanError) => ({ verdict: 'error' as const, hash: sha256, error }));
  return decide(outcome) === 'allow';
}

// --- its tests ----------------------------------------------------------------
const BASE_URL = 'https://hashscan.example.test';
const infected = recordFor('pretend this is malware', { source: 'test-engine' });
const handlers = createHashScanHandlers({
  baseUrl: BASE_URL,
  apiKey: 'test-key',
  records: [infected],
  faults: { ['b'.repeat(64)]: 'http-status', ['c'.repeat(64)]: 'is-virus-string' },
});
const server = setupServer(...handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const scanner = new HashScanClient({ apiKey: 'test-key', baseUrl: BASE_URL, retry: false, cache: false });

describe('canShare', () => {
  it('refuses a flagged file, found by any of its digests', async () => {
    expect(await canShare(scanner, infected.sha256)).toBe(false);
    expect(await canShare(scanner, infected.md5)).toBe(false);
  });

  it('allows a file no service flagged', async () => {
    expect(await canShare(scanner, 'a'.repeat(64))).toBe(true);
  });

  it('fails closed when the service misbehaves', async () => {
    expect(await canShare(scanner, 'b'.repeat(64))).toBe(false);
    expect(await canShare(scanner, 'c'.repeat(64))).toBe(false);
  });

  it('sent one lookup per call, with the key', () => {
    expect(handlers.requests.map((request) => request.params.api_key)).toEqual(Array(5).fill('***'));
  });
});
