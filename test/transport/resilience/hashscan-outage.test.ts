import { HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HashScanError } from '../../../src/errors/hashscan-error.js';
import { decide } from '../../../src/hashscan/decide.js';
import type { ScanOutcome, ScanResult } from '../../../src/hashscan/scan-result.js';
import { json, MD5, makeClient, NOT_DETECTED, SHA1, SHA256, serveLookup } from '../../helpers/hash-lookup.js';
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
  it('opens after distinct calls fail in a row, rejects at once with CIRCUIT_OPEN (review), probes after the cool-down', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    let up = false;
    const requests = serveLookup(server, () => (up ? json(NOT_DETECTED) : json({}, 502)));
    const client = makeClient({
      retry: false,
      circuitBreaker: { failureThreshold: 3, cooldownMs: 20_000, halfOpenProbes: 1 },
    });
    for (const hash of [SHA256, SHA1, MD5])
      await expect(client.scan(hash)).rejects.toMatchObject({ code: 'HTTP_STATUS' });
    expect(client.stats()).toMatchObject({ circuit: 'open', circuitOpened: 1 });
    expect(Object.values(client.stats().circuits)).toEqual(['open']);

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

  it('does not open when one hash keeps failing, however often it is asked for', async () => {
    const requests = serveLookup(server, (hash) => (hash === SHA256 ? json({}, 500) : json(NOT_DETECTED)));
    const client = makeClient({ retry: false, cache: false, circuitBreaker: { failureThreshold: 2, minimumCalls: 2 } });
    for (let i = 0; i < 20; i++) await expect(client.scan(SHA256)).rejects.toMatchObject({ code: 'HTTP_STATUS' });
    await expect(client.scan(SHA1)).resolves.toMatchObject({ verdict: 'not_detected' });
    expect(client.stats().circuit).toBe('closed');
    expect(requests).toHaveLength(21);
  });

  it('lets halfOpenProbes calls through in half-open; the others are rejected', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const requests = serveLookup(server, () => HttpResponse.error());
    const client = makeClient({
      retry: false,
      circuitBreaker: { failureThreshold: 1, cooldownMs: 1_000, halfOpenProbes: 2 },
    });
    await expect(client.scan(SHA256)).rejects.toMatchObject({ code: 'NETWORK' });
    vi.advanceTimersByTime(1_000);
    const outcomes = await client.scanMany([SHA256, SHA1, MD5]);
    expect(outcomes.map((entry) => (entry.verdict === 'error' ? entry.error.code : entry.verdict))).toEqual([
      'NETWORK',
      'NETWORK',
      'CIRCUIT_OPEN',
    ]);
    expect(requests).toHaveLength(3);
    expect(client.stats().circuit).toBe('open');
  });

  it('does not retry into a circuit that opened meanwhile: the caller gets the real failure', async () => {
    const requests = serveLookup(server, () => json({}, 500));
    const client = makeClient({
      retry: { retries: 5, minDelayMs: 400, maxDelayMs: 800 },
      circuitBreaker: { failureThreshold: 1 },
    });
    const waiting = client.scan(SHA1); // fails, then waits to retry
    // No time to retry within its budget: it fails after one attempt, and opens the circuit.
    await expect(client.scan(SHA256, { totalTimeoutMs: 150 })).rejects.toMatchObject({ code: 'HTTP_STATUS' });
    expect(client.stats().circuit).toBe('open');
    await expect(waiting).rejects.toMatchObject({ code: 'HTTP_STATUS', attempts: 1 });
    expect(requests).toHaveLength(2);
  });

  it('counts neither answers that show the service is up (a 404, a bad body, a 429) nor caller aborts', async () => {
    const hashes = Array.from({ length: 12 }, (_, i) => i.toString(16).padStart(64, '0'));
    const requests = serveLookup(server, (hash) => {
      const i = hashes.indexOf(hash);
      if (i % 4 === 0) return json({}, 500);
      if (i % 4 === 1) return json({}, 404);
      if (i % 4 === 2) return json({ status: 'success' }); // fails interpretation
      return json({}, 429);
    });
    const client = makeClient({ retry: false, circuitBreaker: { failureThreshold: 4, minimumCalls: 4 } });
    for (const hash of hashes) await outcome(client.scan(hash));
    const controller = new AbortController();
    const aborted = outcome(client.scan('f'.repeat(64), { signal: controller.signal }));
    controller.abort();
    await aborted;
    expect(client.stats().circuit).toBe('closed'); // 3 failures, 0 successes: below both thresholds
    expect(requests.length).toBeGreaterThanOrEqual(12);
  });

  it('a full outage: the circuit opens early, later calls get CIRCUIT_OPEN at once, at most 1.5 requests per call', async () => {
    const requests = serveLookup(server, () => json({}, 503));
    const client = makeClient({ retry: { retries: 2, minDelayMs: 1, maxDelayMs: 4 }, cache: false });
    const hashes = Array.from({ length: 300 }, (_, i) => i.toString(16).padStart(64, 'a'));
    const outcomes = await client.scanMany(hashes, { concurrency: 16 });
    const codes = outcomes.map((entry) => (entry.verdict === 'error' ? entry.error.code : entry.verdict));
    expect(new Set(codes)).toEqual(new Set(['HTTP_STATUS', 'CIRCUIT_OPEN']));
    expect(codes.slice(-100).every((code) => code === 'CIRCUIT_OPEN')).toBe(true);
    expect(requests.length).toBeLessThanOrEqual(1.5 * hashes.length);
    expect(client.stats()).toMatchObject({ circuit: 'open', circuitOpened: 1 });
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
