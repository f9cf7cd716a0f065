import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FetchLike } from '../../../src/transport/call/transport.js';
import { useMswServer } from '../../helpers/msw.js';
import { BASE_URL, makeClient, REQUEST, rejection } from '../../sms/sms-service.js';

const server = useMswServer();

afterEach(() => {
  vi.useRealTimers();
});

/** A `fetch` whose connections are all refused (nothing is ever sent), counting its calls. */
function refusingFetch(): { fetch: FetchLike; count: () => number } {
  let count = 0;
  return {
    fetch: async () => {
      count += 1;
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' }),
      });
    },
    count: () => count,
  };
}

function failEvery(respond: () => Response): { count: () => number } {
  let count = 0;
  server.use(
    http.all(`${BASE_URL}/`, () => {
      count += 1;
      return respond();
    }),
  );
  return { count: () => count };
}

describe('SmsClient in an outage', () => {
  it('rejects with CIRCUIT_OPEN and outcome not_sent once the circuit is open, sending nothing', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const service = refusingFetch();
    const sms = makeClient({ fetch: service.fetch, retry: false, circuitBreaker: { failureThreshold: 2 } });
    // Each send is a call of its own: two failed sends open the circuit.
    for (let i = 0; i < 2; i++) await expect(rejection(sms.send(REQUEST))).resolves.toMatchObject({ code: 'NETWORK' });
    const error = await rejection(sms.send(REQUEST));
    expect(error).toMatchObject({ code: 'CIRCUIT_OPEN', outcome: 'not_sent', attempts: 0 });
    expect(service.count()).toBe(2);
    expect(sms.stats()).toMatchObject({ circuit: 'open', rejectedByCircuit: 1, requests: 2 });
    // SMS cools down faster than lookups by default (10 s).
    vi.advanceTimersByTime(10_000);
    expect(sms.stats().circuit).toBe('half-open');
  });

  it('keeps outcome unknown when an earlier attempt of the same send may have gone out', async () => {
    const service = failEvery(() => HttpResponse.json({}, { status: 503 }));
    const sms = makeClient({
      retry: { retries: 3, minDelayMs: 400, maxDelayMs: 800 },
      retryUnknownOutcome: true,
      circuitBreaker: { failureThreshold: 1 },
    });
    const waiting = rejection(sms.send(REQUEST));
    // Another send with no time to retry fails once and opens the circuit: the first one is not re-sent.
    await expect(rejection(sms.send(REQUEST, { totalTimeoutMs: 150 }))).resolves.toMatchObject({ code: 'HTTP_STATUS' });
    const error = await waiting;
    expect(error).toMatchObject({ code: 'HTTP_STATUS', outcome: 'unknown' });
    expect(service.count()).toBe(2);
  });

  it('the retry budget caps re-sends of refused connections', async () => {
    const service = refusingFetch();
    const sms = makeClient({
      fetch: service.fetch,
      retry: { retries: 2, minDelayMs: 1, maxDelayMs: 2 },
      retryBudget: { capacity: 5 },
      circuitBreaker: false,
    });
    for (let i = 0; i < 4; i++) await rejection(sms.send(REQUEST));
    expect(service.count()).toBe(5);
    expect(sms.stats()).toMatchObject({ retries: 1, retryTokens: 0, circuit: 'disabled' });
  });
});
