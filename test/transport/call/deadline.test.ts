import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../../src/errors/configuration-error.js';
import { HashScanError } from '../../../src/errors/hashscan-error.js';
import { SmsError } from '../../../src/errors/sms-error.js';
import { SmsClient, type SmsCredentials } from '../../../src/sms/index.js';
import { json, MD5, makeClient, NOT_DETECTED, SHA1, SHA256, serveLookup } from '../../helpers/hash-lookup.js';
import { useMswServer } from '../../helpers/msw.js';
import { makeClient as makeSms, REQUEST, BASE_URL as SMS_URL } from '../../sms/sms-service.js';

// totalTimeoutMs: one budget for all attempts and back-off. Time is faked:
// the service stalls forever and the clock is moved by hand.

const server = useMswServer();

/** A service that never answers (until the test ends). */
const stall = (): Promise<Response> => new Promise<Response>(() => undefined);

/** Tracks when a promise settled, on the (fake) clock. */
function watch<T>(promise: Promise<T>): {
  readonly settledAt: () => number | undefined;
  readonly outcome: Promise<unknown>;
} {
  let at: number | undefined;
  const outcome = promise.then(
    (value) => value,
    (error: unknown) => error,
  );
  void outcome.finally(() => {
    at = performance.now();
  });
  return { settledAt: () => at, outcome };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('HashScanClient totalTimeoutMs', () => {
  const defaults = { retry: { retries: 2, minDelayMs: 500, maxDelayMs: 8000 }, timeoutMs: 10_000 };

  it('ends a stalled lookup at the budget (not ~31 s): TIMEOUT with the attempts made', async () => {
    const requests = serveLookup(server, stall);
    const started = performance.now();
    const call = watch(makeClient({ ...defaults, totalTimeoutMs: 15_000 }).scan(SHA256));
    await vi.advanceTimersByTimeAsync(14_900);
    expect(call.settledAt()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(200);
    const error = await call.outcome;
    expect(error).toBeInstanceOf(HashScanError);
    expect(error).toMatchObject({ code: 'TIMEOUT', attempts: 2 });
    expect((error as HashScanError).message).toBe('no complete response within totalTimeoutMs (15000 ms; 2 attempts)');
    expect((call.settledAt() ?? 0) - started).toBeLessThanOrEqual(15_001);
    expect(requests).toHaveLength(2);
  });

  it('per call: scan(hash, { totalTimeoutMs }) overrides the client, shorter or longer', async () => {
    const requests = serveLookup(server, stall);
    const client = makeClient({ ...defaults, totalTimeoutMs: 15_000 });
    const short = watch(client.scan(SHA256, { totalTimeoutMs: 3_000 }));
    const long = watch(client.scan(MD5, { totalTimeoutMs: 40_000 }));
    await vi.advanceTimersByTimeAsync(3_001);
    expect(await short.outcome).toMatchObject({ code: 'TIMEOUT', attempts: 1 });
    await vi.advanceTimersByTimeAsync(20_000);
    expect(long.settledAt()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(20_000);
    // 3 attempts × 10 s plus back-off fit in 40 s: the last attempt's own time-out ends it.
    expect(await long.outcome).toMatchObject({ code: 'TIMEOUT', attempts: 3 });
    expect(requests).toHaveLength(4);
  });

  it('a caller joining a shared lookup stops waiting at its own budget; the others keep waiting', async () => {
    serveLookup(server, stall);
    const client = makeClient({ ...defaults });
    const patient = new AbortController();
    const first = watch(client.scan(SHA256, { signal: patient.signal }));
    const hurried = watch(client.scan(SHA256, { totalTimeoutMs: 1_000 }));
    await vi.advanceTimersByTimeAsync(1_001);
    expect(await hurried.outcome).toMatchObject({ code: 'TIMEOUT', message: expect.stringContaining('1000 ms') });
    expect(first.settledAt()).toBeUndefined();
    patient.abort();
    expect(await first.outcome).toMatchObject({ code: 'ABORTED' });
  });

  it('a back-off that would end past the budget is not waited for: the last error stands at once', async () => {
    const requests = serveLookup(server, () => json({}, 503, { 'retry-after': '5' }));
    const started = performance.now();
    const call = watch(makeClient({ ...defaults, totalTimeoutMs: 4_000 }).scan(SHA256));
    await vi.advanceTimersByTimeAsync(10);
    expect(await call.outcome).toMatchObject({ code: 'HTTP_STATUS', status: 503, attempts: 1 });
    expect((call.settledAt() ?? Number.POSITIVE_INFINITY) - started).toBeLessThan(100);
    expect(requests).toHaveLength(1);
  });

  it('retries only while a back-off fits the budget, starting no attempt past it', async () => {
    const started: number[] = [];
    serveLookup(server, () => {
      started.push(performance.now());
      return json({}, 503);
    });
    const client = makeClient({ totalTimeoutMs: 1_000, retry: { retries: 50, minDelayMs: 300, maxDelayMs: 300 } });
    const begin = performance.now();
    const call = watch(client.scan(SHA256));
    await vi.advanceTimersByTimeAsync(1_001);
    // Waits of 150–300 ms (equal jitter): the last attempt that fits ends the call with its own error.
    expect(await call.outcome).toMatchObject({ code: 'HTTP_STATUS', status: 503 });
    expect(started.length).toBeGreaterThanOrEqual(4);
    expect(Math.max(...started) - begin).toBeLessThan(1_000);
    expect((call.settledAt() ?? Number.POSITIVE_INFINITY) - begin).toBeLessThan(1_000);
  });

  it('scanMany and scanIterable give each lookup the budget', async () => {
    serveLookup(server, stall);
    const client = makeClient({ ...defaults });
    const many = watch(client.scanMany([SHA256, MD5], { totalTimeoutMs: 2_000 }));
    const iterated = watch(
      (async () => {
        const outcomes = [];
        for await (const outcome of client.scanIterable([SHA1], { totalTimeoutMs: 2_000 })) outcomes.push(outcome);
        return outcomes;
      })(),
    );
    await vi.advanceTimersByTimeAsync(2_001);
    const outcomes = (await many.outcome) as { verdict: string; error?: HashScanError }[];
    expect(outcomes.map(({ error }) => error?.code)).toEqual(['TIMEOUT', 'TIMEOUT']);
    const streamed = (await iterated.outcome) as { verdict: string; error?: HashScanError }[];
    expect(streamed.map(({ error }) => error?.code)).toEqual(['TIMEOUT']);
  });

  it('an answer within the budget is unaffected', async () => {
    serveLookup(server, () => json(NOT_DETECTED));
    await expect(makeClient({ totalTimeoutMs: 1_000 }).scan(SHA256)).resolves.toMatchObject({
      verdict: 'not_detected',
    });
  });

  it.each([0, -1, 1.5, 2_147_483_648, Number.NaN])('totalTimeoutMs %s is a configuration error', async (value) => {
    expect(() => makeClient({ totalTimeoutMs: value })).toThrow(ConfigurationError);
    await expect(makeClient().scan(SHA256, { totalTimeoutMs: value })).rejects.toThrow(ConfigurationError);
  });
});

describe("a caller's signal that times out is TIMEOUT, not ABORTED", () => {
  it('HashScanClient', async () => {
    serveLookup(server, stall);
    const controller = new AbortController();
    const call = watch(makeClient().scan(SHA256, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(10);
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    expect(await call.outcome).toMatchObject({ code: 'TIMEOUT', message: "the caller's signal timed out" });
  });

  it('HashScanClient with AbortSignal.timeout() (real timers)', async () => {
    vi.useRealTimers();
    serveLookup(server, stall);
    const error = await makeClient()
      .scan(SHA256, { signal: AbortSignal.timeout(20) })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'TIMEOUT' });
  });

  it('SmsClient: TIMEOUT, outcome unknown once the request went out; not retried', async () => {
    let requests = 0;
    server.use(
      http.all(`${SMS_URL}/`, () => {
        requests += 1;
        return stall();
      }),
    );
    const controller = new AbortController();
    const call = watch(makeSms({ retryUnknownOutcome: true }).send(REQUEST, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(10);
    controller.abort(new DOMException('timed out', 'TimeoutError'));
    const error = await call.outcome;
    expect(error).toBeInstanceOf(SmsError);
    expect(error).toMatchObject({ code: 'TIMEOUT', outcome: 'unknown', attempts: 1 });
    expect(requests).toBe(1);
  });
});

describe('a TimeoutError abort while SMS credentials are fetched', () => {
  it('is TIMEOUT, not_sent, and nothing goes out', async () => {
    let requests = 0;
    server.use(
      http.all(`${SMS_URL}/`, () => {
        requests += 1;
        return HttpResponse.json({ Code: 'OK', Message: 'OK', RequestId: 'r' });
      }),
    );
    const sms = new SmsClient({ baseUrl: SMS_URL, credentials: () => new Promise<SmsCredentials>(() => undefined) });
    const controller = new AbortController();
    const call = watch(sms.send(REQUEST, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(10);
    controller.abort(new DOMException('timed out', 'TimeoutError'));
    expect(await call.outcome).toMatchObject({ code: 'TIMEOUT', outcome: 'not_sent', attempts: 0 });
    expect(requests).toBe(0);
  });
});

describe('SmsClient totalTimeoutMs', () => {
  it('per call: TIMEOUT with outcome unknown at the budget, sent once', async () => {
    let requests = 0;
    server.use(
      http.all(`${SMS_URL}/`, () => {
        requests += 1;
        return stall();
      }),
    );
    const call = watch(
      makeSms({ timeoutMs: 10_000, retryUnknownOutcome: true }).send(REQUEST, { totalTimeoutMs: 2_500 }),
    );
    await vi.advanceTimersByTimeAsync(2_501);
    const error = await call.outcome;
    expect(error).toMatchObject({ code: 'TIMEOUT', outcome: 'unknown', attempts: 1 });
    expect((error as SmsError).message).toBe(
      'no complete response within totalTimeoutMs (2500 ms; 1 attempt); the message may have been sent',
    );
    expect(requests).toBe(1);
  });

  it('client-wide: TIMEOUT at the budget, before the time-out of the attempt', async () => {
    let requests = 0;
    server.use(
      http.all(`${SMS_URL}/`, () => {
        requests += 1;
        return stall();
      }),
    );
    const call = watch(makeSms({ timeoutMs: 10_000, totalTimeoutMs: 2_500 }).send(REQUEST));
    await vi.advanceTimersByTimeAsync(2_501);
    expect(await call.outcome).toMatchObject({ code: 'TIMEOUT', outcome: 'unknown', attempts: 1 });
    expect(requests).toBe(1);
  });

  it('an invalid per-call budget is InvalidParameter, nothing sent', async () => {
    await expect(makeSms().send(REQUEST, { totalTimeoutMs: 0 })).rejects.toMatchObject({
      code: 'InvalidParameter',
      parameter: 'totalTimeoutMs',
      outcome: 'not_sent',
    });
  });
});
