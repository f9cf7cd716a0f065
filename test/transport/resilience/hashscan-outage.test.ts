import { HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HashScanError } from '../../../src/errors/hashscan-error.js';
import { decide } from '../../../src/hashscan/decide.js';
import type { ScanOutcome, ScanResult } from '../../../src/hashscan/scan-result.js';
import { HIT, json, MD5, makeClient, NOT_DETECTED, SHA1, SHA256, serveLookup } from '../../helpers/hash-lookup.js';
import { useMswServer } from '../../helpers/msw.js';

const server = useMswServer();

afterEach(() => {
  vi.useRealTimers();
});

const outcome = (promise: Promise<ScanResult>): Promise<ScanOutcome> =>
  promise.catch((error: HashScanError) => ({ verdict: 'error' as const, hash: error.hash ?? '', error }));

describe('retry budget in a full outage', () => {
  it('sends one request per call once the budget is spent, instead of 1 + retries', async () => {
    const requests = serveLookup(server, () => json({}, 503));
    // 50 tokens: ten retries at 5 each. Breaker off, to see the budget alone.
    const client = makeClient({ retryBudget: { capacity: 50 }, circuitBreaker: false });
    const calls = 60;
    for (let i = 0; i < calls; i++) {
      await expect(client.scan(SHA256)).rejects.toMatchObject({ code: 'HTTP_STATUS' });
    }
    expect(requests).toHaveLength(calls + 10);
    expect(client.stats()).toMatchObject({ requests: calls + 10, retries: 10, retryTokens: 0, circuit: 'disabled' });
    expect(client.stats().retriesDenied).toBe(calls - 5); // 5 calls had 2 retries each
  });

  it('charges 10 tokens for a retry after a time-out', async () => {
    serveLookup(server, async (_hash, call) => {
      if (call === 1) await new Promise((resolve) => setTimeout(resolve, 2_000));
      return json(NOT_DETECTED);
    });
    const client = makeClient({ timeoutMs: 50, retryBudget: { capacity: 30 } });
    await expect(client.scan(SHA256)).resolves.toMatchObject({ verdict: 'not_detected' });
    // 30 - 10 for the retry, + 10 back for the success of a retried call.
    expect(client.stats()).toMatchObject({ requests: 2, retries: 1, retryTokens: 30 });
  });

  it('without the budget every call makes all its attempts', async () => {
    const requests = serveLookup(server, () => HttpResponse.error());
    const client = makeClient({ retryBudget: false, circuitBreaker: false });
    for (let i = 0; i < 10; i++) await expect(client.scan(SHA256)).rejects.toMatchObject({ code: 'NETWORK' });
    expect(requests).toHaveLength(30);
    expect(client.stats().retryTokens).toBeUndefined();
  });
});

describe('circuit breaker', () => {
  it('opens after consecutive failures, rejects at once with CIRCUIT_OPEN (review), probes after the cool-down', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    let up = false;
    const requests = serveLookup(server, () => (up ? json(NOT_DETECTED) : json({}, 502)));
    const client = makeClient({ retry: false, circuitBreaker: { failureThreshold: 3, cooldownMs: 20_000 } });
    for (let i = 0; i < 3; i++) await expect(client.scan(SHA256)).rejects.toMatchObject({ code: 'HTTP_STATUS' });
    expect(client.stats().circuit).toBe('open');

    const rejected = await outcome(client.scan(MD5));
    expect(rejected).toMatchObject({ verdict: 'error', error: { code: 'CIRCUIT_OPEN', attempts: 0, hash: MD5 } });
    expect(decide(rejected)).toBe('review');
    const batch = await client.scanMany([SHA1, MD5]);
    expect(batch.map((entry) => entry.verdict)).toEqual(['error', 'error']);
    expect(requests).toHaveLength(3);

    vi.advanceTimersByTime(20_000);
    expect(client.stats().circuit).toBe('half-open');
    up = true;
    await expect(client.scan(SHA1)).resolves.toMatchObject({ verdict: 'not_detected' });
    expect(requests).toHaveLength(4);
    expect(client.stats()).toMatchObject({ circuit: 'closed', rejectedByCircuit: 3 });
  });

  it('lets only one probe through in half-open; the others are rejected', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const requests = serveLookup(server, () => HttpResponse.error());
    const client = makeClient({ retry: false, circuitBreaker: { failureThreshold: 1, cooldownMs: 1_000 } });
    await expect(client.scan(SHA256)).rejects.toMatchObject({ code: 'NETWORK' });
    vi.advanceTimersByTime(1_000);
    const outcomes = await client.scanMany([SHA256, SHA1, MD5]);
    expect(outcomes.map((entry) => (entry.verdict === 'error' ? entry.error.code : entry.verdict))).toEqual([
      'NETWORK',
      'CIRCUIT_OPEN',
      'CIRCUIT_OPEN',
    ]);
    expect(requests).toHaveLength(2);
    expect(client.stats().circuit).toBe('open');
  });

  it('does not retry into an open circuit: the caller gets the real failure', async () => {
    const requests = serveLookup(server, () => json({}, 500));
    const client = makeClient({
      retry: { retries: 5, minDelayMs: 1, maxDelayMs: 2 },
      circuitBreaker: { failureThreshold: 2 },
    });
    await expect(client.scan(SHA256)).rejects.toMatchObject({ code: 'HTTP_STATUS', attempts: 2 });
    expect(requests).toHaveLength(2);
  });

  it('does not count answers that show the service is up (a hit, a 404) as failures', async () => {
    const requests = serveLookup(server, (_hash, call) => (call % 2 === 0 ? json(HIT) : json({}, 500)));
    const client = makeClient({ retry: false, circuitBreaker: { failureThreshold: 2 } });
    for (let i = 0; i < 6; i++) await outcome(client.scan(SHA256));
    expect(client.stats().circuit).toBe('closed');
    expect(requests).toHaveLength(6);
  });
});

describe('rate limits', () => {
  it('a 429 with Retry-After pauses every caller of the client, not just the one that got it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
    const sentAt: number[] = [];
    serveLookup(server, (_hash, call) => {
      sentAt.push(performance.now());
      return call === 1 ? json({}, 429, { 'retry-after': '2' }) : json(NOT_DETECTED);
    });
    const client = makeClient({ retry: { retries: 1, minDelayMs: 1, maxDelayMs: 5_000 } });
    const first = client.scan(SHA256);
    await vi.advanceTimersByTimeAsync(10);
    const others = client.scanMany([SHA1, MD5]);
    await vi.advanceTimersByTimeAsync(1_900);
    expect(sentAt).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    await expect(first).resolves.toMatchObject({ verdict: 'not_detected' });
    expect((await others).map((entry) => entry.verdict)).toEqual(['not_detected', 'not_detected']);
    expect(sentAt).toHaveLength(4);
    for (const at of sentAt.slice(1)) expect(at).toBeGreaterThanOrEqual(2_000);
    expect(client.stats().throttledMs).toBeGreaterThanOrEqual(2 * 1_990);
    expect(client.stats().circuit).toBe('closed');
  });

  it('requestsPerSecond spaces requests over all callers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
    const sentAt: number[] = [];
    serveLookup(server, () => {
      sentAt.push(Math.round(performance.now()));
      return json(NOT_DETECTED);
    });
    const client = makeClient({ rateLimit: { requestsPerSecond: 4, burst: 1 } });
    const batch = client.scanMany([SHA256, SHA1, MD5]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await batch).every((entry) => entry.verdict === 'not_detected')).toBe(true);
    expect(sentAt).toEqual([0, 250, 500]);
  });
});
