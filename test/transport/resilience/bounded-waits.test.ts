/**
 * Every wait before an attempt is bounded by the call's budget: a wait that
 * cannot end within `totalTimeoutMs` ends the call at once (TIMEOUT with
 * `retryAfterMs`, nothing sent), never a sleep past it (issue 28, finding 1:
 * a real `Retry-After: 60` held a call with `totalTimeoutMs: 15000` for 60 s).
 * A waiting call shows itself: `stats()`, one log line per pause, a `pause` event.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HashScanClient } from '../../../src/hashscan/hashscan-client.js';
import type { Observer, ObserverEvent } from '../../../src/observe/events.js';
import { INTERNAL_OBSERVERS } from '../../../src/observe/observers.js';
import { SmsClient } from '../../../src/sms/index.js';
import { type Loopback, startLoopback } from '../../helpers/loopback.js';

const HASHES = ['a', 'b', 'c', 'd'].map((letter) => letter.repeat(64));
const NOT_DETECTED = '{"status":"success","is_virus":false,"message":"No active service detected this file"}';

/** A lookup service whose first answer is a 429 with `Retry-After: 60`, then "not detected". */
async function rateLimitedService(): Promise<Loopback> {
  let seen = 0;
  return startLoopback((_request, response) => {
    seen += 1;
    if (seen === 1) {
      response.writeHead(429, { 'retry-after': '60', 'content-type': 'application/json' });
      response.end('{"status":"error","message":"slow down"}');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(NOT_DETECTED);
  });
}

function recording() {
  const lines: string[] = [];
  const events: ObserverEvent[] = [];
  const push = (line: string) => void lines.push(line);
  const observer: Observer = { observe: (event) => events.push(event), types: ['pause'] };
  return { lines, events, logger: { debug: () => {}, info: push, warn: push, error: push }, observer };
}

const services: Loopback[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.close();
});

describe('a wait before an attempt never outlasts the call’s budget', () => {
  it('a real Retry-After: 60 ends later calls with totalTimeoutMs at once: TIMEOUT, retryAfterMs, nothing sent', async () => {
    const service = await rateLimitedService();
    services.push(service);
    const { lines, events, logger, observer } = recording();
    const client = new HashScanClient({
      apiKey: 'k',
      baseUrl: service.url,
      cache: false,
      logger,
      totalTimeoutMs: 15_000,
      [INTERNAL_OBSERVERS]: [observer],
    } as never);
    // The 429 itself: its retry would end past the budget, so the call ends with it.
    await expect(client.scan(HASHES[0] as string)).rejects.toMatchObject({ code: 'HTTP_STATUS', status: 429 });
    const stats = client.stats();
    expect(stats.pausedUntil).toBeGreaterThan(Date.now() + 50_000);
    const started = performance.now();
    const later = await Promise.all(HASHES.slice(1).map((hash) => client.scanOutcome(hash)));
    // Generous: "at once" against a 15 s budget and a 60 s pause, on a loaded machine.
    expect(performance.now() - started).toBeLessThan(5_000);
    for (const outcome of later) {
      expect(outcome).toMatchObject({ verdict: 'error', error: { code: 'TIMEOUT', attempts: 0 } });
      const retryAfterMs = outcome.verdict === 'error' ? outcome.error.retryAfterMs : undefined;
      expect(retryAfterMs).toBeGreaterThan(50_000);
      expect(retryAfterMs).toBeLessThanOrEqual(60_000);
    }
    expect(service.hits()).toBe(1);
    expect(client.stats()).toMatchObject({ waitsRefused: 3, waiting: 0 });
    // One pause: one event and one log line, not one per call.
    expect(events).toEqual([{ type: 'pause', client: 'hashscan', source: 'retry-after', pauseMs: 60_000 }]);
    expect(lines.filter((line) => line.includes('Retry-After holds every attempt'))).toHaveLength(1);
  });

  it('the SMS client ends the same way: TIMEOUT, not_sent, retryAfterMs', async () => {
    let seen = 0;
    const service = await startLoopback((_request, response) => {
      seen += 1;
      response.writeHead(429, { 'retry-after': '60', 'content-type': 'application/json' });
      response.end('{"Code":"Throttling","Message":"slow down","RequestId":"r"}');
    });
    services.push(service);
    const client = new SmsClient({
      accessKeyId: 'id',
      accessKeySecret: 'secret',
      baseUrl: service.url,
      totalTimeoutMs: 10_000,
    });
    const send = { phoneNumbers: '13800000000', signName: 'Sign', templateCode: 'SMS_1', templateParam: { code: '1' } };
    await expect(client.send(send)).rejects.toMatchObject({ status: 429 });
    const started = performance.now();
    await expect(client.send(send)).rejects.toMatchObject({
      code: 'TIMEOUT',
      outcome: 'not_sent',
      retryAfterMs: expect.any(Number),
    });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(seen).toBe(1);
  });

  it('while a pause holds calls without a budget, stats() shows them waiting and when the pause ends', async () => {
    let seen = 0;
    const service = await startLoopback((_request, response) => {
      seen += 1;
      if (seen === 1) {
        response.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
        response.end('{"status":"error","message":"slow down"}');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(NOT_DETECTED);
    });
    services.push(service);
    const client = new HashScanClient({ apiKey: 'k', baseUrl: service.url, cache: false, retry: false });
    await expect(client.scan(HASHES[0] as string)).rejects.toMatchObject({ status: 429 });
    const waiting = Promise.all(HASHES.slice(1).map((hash) => client.scan(hash)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const during = client.stats();
    expect(during.waiting).toBe(3);
    expect(during.pausedUntil).toBeGreaterThan(Date.now());
    await expect(waiting).resolves.toHaveLength(3);
    expect(client.stats()).toMatchObject({ waiting: 0, pausedUntil: undefined });
  });

  it('the rateLimit: a turn that comes after the budget ends the call at once, and takes no turn', async () => {
    const service = await startLoopback((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(NOT_DETECTED);
    });
    services.push(service);
    const client = new HashScanClient({
      apiKey: 'k',
      baseUrl: service.url,
      cache: false,
      rateLimit: { requestsPerSecond: 1, burst: 1 },
    });
    await client.scan(HASHES[0] as string);
    const refused = await client.scanOutcome(HASHES[1] as string, { totalTimeoutMs: 200 });
    expect(refused).toMatchObject({ verdict: 'error', error: { code: 'TIMEOUT', attempts: 0 } });
    // Said at once, with when the turn comes (not a time-out after sleeping the budget away).
    const retryAfterMs = refused.verdict === 'error' ? refused.error.retryAfterMs : undefined;
    expect(retryAfterMs).toBeGreaterThan(200);
    expect(retryAfterMs).toBeLessThanOrEqual(1_000);
    await client.scan(HASHES[2] as string, { totalTimeoutMs: 5_000 });
    expect(service.hits()).toBe(2);
    expect(client.stats().waitsRefused).toBe(1);
  });
});
