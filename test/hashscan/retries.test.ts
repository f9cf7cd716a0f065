import { delay, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HashScanError } from '../../src/errors/hashscan-error.js';
import { advanceUntil, fakeTimeouts } from '../helpers/fake-timeouts.js';
import { HIT, json, makeClient, NOT_DETECTED, SHA256, serveLookup } from '../helpers/hash-lookup.js';
import { useMswServer } from '../helpers/msw.js';

const server = useMswServer();

afterEach(() => {
  vi.useRealTimers();
});

describe('retries', () => {
  it.each([
    ['HTTP 500', () => json({}, 500)],
    ['HTTP 502', () => new HttpResponse('bad gateway', { status: 502 })],
    ['HTTP 503', () => json({}, 503)],
    ['HTTP 408', () => json({}, 408)],
    ['HTTP 429', () => json({}, 429)],
    ['a network error', () => HttpResponse.error()],
  ])('retries %s, then succeeds', async (_name, transient) => {
    const requests = serveLookup(server, (_hash, call) => (call < 3 ? transient() : json(NOT_DETECTED)));
    const result = await makeClient().scan(SHA256);
    expect(result.verdict).toBe('not_detected');
    expect(requests).toHaveLength(3);
  });

  it('gives up after retries + 1 attempts and reports them', async () => {
    const requests = serveLookup(server, () => json({}, 503));
    const error = await makeClient({ retry: { retries: 3, minDelayMs: 1, maxDelayMs: 2 } })
      .scan(SHA256)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 503, attempts: 4 });
    expect(requests).toHaveLength(4);
  });

  it('retries a time-out', async () => {
    // Fake time: the first attempt times out when the test says, and the second one, which answers,
    // can never lose a race against its own time-out on a loaded machine.
    fakeTimeouts();
    const requests = serveLookup(server, async (_hash, call) => {
      if (call === 1) await delay('infinite');
      return json(NOT_DETECTED);
    });
    const scan = makeClient({ timeoutMs: 10_000 }).scan(SHA256);
    await advanceUntil(() => requests.length === 1);
    await vi.advanceTimersByTimeAsync(10_000);
    await advanceUntil(() => requests.length === 2);
    await expect(scan).resolves.toMatchObject({ verdict: 'not_detected' });
    expect(requests).toHaveLength(2);
  });

  it.each([
    ['status not success', () => json({ ...NOT_DETECTED, status: 'fail' })],
    ['an abnormal structure', () => json({ ...NOT_DETECTED, is_virus: 'x' })],
    ['invalid JSON', () => new HttpResponse('nope')],
    ['HTTP 400', () => json({}, 400)],
    ['HTTP 401', () => json({}, 401)],
    ['HTTP 404', () => json({}, 404)],
  ])('does not retry %s', async (_name, respond) => {
    const requests = serveLookup(server, () => respond());
    await expect(makeClient().scan(SHA256)).rejects.toBeInstanceOf(HashScanError);
    expect(requests).toHaveLength(1);
  });

  it('does not retry a hit', async () => {
    const requests = serveLookup(server, () => json(HIT));
    await expect(makeClient().scan(SHA256)).resolves.toMatchObject({ verdict: 'malicious' });
    expect(requests).toHaveLength(1);
  });

  it('retry: false makes a single attempt', async () => {
    const requests = serveLookup(server, () => json({}, 503));
    await expect(makeClient({ retry: false }).scan(SHA256)).rejects.toMatchObject({ attempts: 1 });
    expect(requests).toHaveLength(1);
  });

  it('waits as long as Retry-After asks (seconds), within maxDelayMs', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const requests = serveLookup(server, (_hash, call) =>
      call === 1 ? json({}, 503, { 'retry-after': '3' }) : json(NOT_DETECTED),
    );
    const scan = makeClient({ retry: { retries: 1, minDelayMs: 1, maxDelayMs: 5_000 } }).scan(SHA256);
    await vi.advanceTimersByTimeAsync(2_900);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    await expect(scan).resolves.toMatchObject({ verdict: 'not_detected' });
    expect(requests).toHaveLength(2);
  });

  it('honours Retry-After as an HTTP date', async () => {
    // `performance` too: a 429's Retry-After also pauses the whole client, on the monotonic clock.
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'],
      now: new Date('2026-01-01T00:00:00Z'),
    });
    const requests = serveLookup(server, (_hash, call) =>
      call === 1 ? json({}, 429, { 'retry-after': 'Thu, 01 Jan 2026 00:00:02 GMT' }) : json(NOT_DETECTED),
    );
    const scan = makeClient({ retry: { retries: 1, minDelayMs: 1, maxDelayMs: 5_000 } }).scan(SHA256);
    await vi.advanceTimersByTimeAsync(1_900);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    await expect(scan).resolves.toMatchObject({ verdict: 'not_detected' });
  });

  it('gives up at once when Retry-After exceeds maxDelayMs, exposing retryAfterMs', async () => {
    const requests = serveLookup(server, () => json({}, 503, { 'retry-after': '120' }));
    const error = await makeClient({ retry: { retries: 2, minDelayMs: 1, maxDelayMs: 8_000 } })
      .scan(SHA256)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'HTTP_STATUS', retryAfterMs: 120_000, attempts: 1 });
    expect(requests).toHaveLength(1);
  });

  it('a caller abort during the back-off wait rejects at once and sends nothing more', async () => {
    const requests = serveLookup(server, () => json({}, 503));
    const controller = new AbortController();
    const scan = makeClient({ retry: { retries: 5, minDelayMs: 60_000, maxDelayMs: 60_000 } }).scan(SHA256, {
      signal: controller.signal,
    });
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    const started = Date.now();
    controller.abort();
    await expect(scan).rejects.toMatchObject({ code: 'ABORTED', attempts: 1 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(requests).toHaveLength(1);
  });

  it('a caller abort during a request is not retried', async () => {
    const requests = serveLookup(server, async () => {
      await delay('infinite');
      return json(NOT_DETECTED);
    });
    const controller = new AbortController();
    const scan = makeClient().scan(SHA256, { signal: controller.signal });
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    controller.abort();
    await expect(scan).rejects.toMatchObject({ code: 'ABORTED' });
    expect(requests).toHaveLength(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    await expect(makeClient().scan(SHA256, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'ABORTED' });
    expect(requests).toHaveLength(0);
  });
});
