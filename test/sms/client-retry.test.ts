import { delay, HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FetchLike } from '../../src/transport/call/transport.js';
import { advanceUntil, fakeTimeouts } from '../helpers/fake-timeouts.js';
import { useMswServer } from '../helpers/msw.js';
import {
  BASE_URL,
  makeClient,
  REQUEST,
  readRequest,
  rejection,
  signedWithTestKey,
  TIMESTAMP,
  UUID,
} from './sms-service.js';

const server = useMswServer();

afterEach(() => {
  vi.useRealTimers();
});

/** The error a `fetch` throws when the connection is refused: nothing was sent. */
const refused = (): TypeError =>
  new TypeError('fetch failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' }),
  });

/** Answers each request with the next response in line (the last one repeats) and counts them. */
function answerInTurn(...responses: (() => Response | Promise<Response>)[]): { count: () => number } {
  let count = 0;
  server.use(
    http.all(`${BASE_URL}/`, () => {
      const respond = responses[Math.min(count, responses.length - 1)] ?? expect.fail('no response');
      count += 1;
      return respond();
    }),
  );
  return { count: () => count };
}

const ok = () => HttpResponse.json({ Code: 'OK', Message: 'OK', RequestId: 'r-ok' });
const stall = async (): Promise<Response> => {
  await delay('infinite');
  return ok();
};

describe('a send is not idempotent', () => {
  it('a stalled POST is sent exactly once and rejects OUTCOME_UNKNOWN', async () => {
    const calls = answerInTurn(stall);
    const error = await rejection(makeClient({ timeoutMs: 50 }).send(REQUEST));
    expect(error).toMatchObject({ code: 'OUTCOME_UNKNOWN', outcome: 'unknown', attempts: 1 });
    expect(error.message).toMatch(/50 ms.*may have been sent/);
    expect(calls.count()).toBe(1);
  });

  it('with retryUnknownOutcome, a time-out is re-sent with a new nonce, both signed', async () => {
    const seen: Awaited<ReturnType<typeof readRequest>>[] = [];
    let count = 0;
    server.use(
      http.all(`${BASE_URL}/`, async ({ request }) => {
        seen.push(await readRequest(request));
        count += 1;
        return count === 1 ? stall() : ok();
      }),
    );
    // Fake time: the re-send, which answers, can never lose a race against its own time-out.
    fakeTimeouts();
    const sending = makeClient({ timeoutMs: 10_000, retryUnknownOutcome: true }).send(REQUEST);
    await advanceUntil(() => count === 1);
    await vi.advanceTimersByTimeAsync(10_000);
    await advanceUntil(() => count === 2);
    const result = await sending;
    expect(result).toEqual({ code: 'OK', message: 'OK', requestId: 'r-ok', attempts: 2 });
    expect(seen.map(({ method, params }) => signedWithTestKey(method, params))).toEqual([true, true]);
    expect(seen[0]?.params.SignatureNonce).not.toBe(seen[1]?.params.SignatureNonce);
  });

  it('a refused connection is re-sent, re-signed with a new nonce and timestamp', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-02T03:04:05.678Z'));
    const sent: Awaited<ReturnType<typeof readRequest>>[] = [];
    const fetch: FetchLike = async (input, init) => {
      sent.push(await readRequest(input));
      if (sent.length === 1) {
        vi.setSystemTime(new Date('2030-01-02T03:04:07.001Z'));
        throw refused();
      }
      return globalThis.fetch(input, init);
    };
    answerInTurn(ok);

    const result = await makeClient({ fetch }).send(REQUEST);

    expect(result).toMatchObject({ code: 'OK', attempts: 2 });
    const [first, second] = sent.map((request) => request.params);
    expect([first?.Timestamp, second?.Timestamp]).toEqual(['2030-01-02T03:04:05Z', '2030-01-02T03:04:07Z']);
    expect(first?.SignatureNonce).toMatch(UUID);
    expect(second?.SignatureNonce).toMatch(UUID);
    expect(first?.SignatureNonce).not.toBe(second?.SignatureNonce);
    expect(first?.Signature).not.toBe(second?.Signature);
    expect(sent.map(({ method, params }) => signedWithTestKey(method, params))).toEqual([true, true]);
    expect(second?.Timestamp).toMatch(TIMESTAMP);
  });

  it('refused on every attempt: NETWORK, nothing sent, after retries + 1 attempts', async () => {
    let calls = 0;
    const fetch: FetchLike = async () => {
      calls += 1;
      throw refused();
    };
    const error = await rejection(makeClient({ fetch }).send(REQUEST));
    expect(error).toMatchObject({ code: 'NETWORK', outcome: 'not_sent', attempts: 3 });
    expect(error.message).toContain('nothing was sent');
    expect(calls).toBe(3);
  });

  it('once an attempt may have been sent, the outcome stays unknown whatever follows', async () => {
    let calls = 0;
    const fetch: FetchLike = async (input, init) => {
      calls += 1;
      if (calls === 1) return globalThis.fetch(input, init);
      throw refused();
    };
    answerInTurn(stall);
    const error = await rejection(
      makeClient({ fetch, timeoutMs: 50, retryUnknownOutcome: true, retry: { retries: 1, minDelayMs: 1 } }).send(
        REQUEST,
      ),
    );
    expect(error).toMatchObject({ code: 'NETWORK', outcome: 'unknown', attempts: 2 });
  });

  it('a service refusal after an attempt that may have been sent still reports an unknown outcome', async () => {
    const refusal = () => HttpResponse.json({ Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: 'limit', RequestId: 'r' });
    const calls = answerInTurn(stall, refusal);
    fakeTimeouts();
    const sending = rejection(makeClient({ timeoutMs: 10_000, retryUnknownOutcome: true }).send(REQUEST));
    await advanceUntil(() => calls.count() === 1);
    await vi.advanceTimersByTimeAsync(10_000);
    await advanceUntil(() => calls.count() === 2);
    const error = await sending;
    // The first attempt may have delivered; the refusal may even be because it did.
    expect(error).toMatchObject({ code: 'isv.BUSINESS_LIMIT_CONTROL', outcome: 'unknown', attempts: 2 });
    expect(calls.count()).toBe(2);
  });

  it.each([429, 500, 503])('HTTP %i without a service body is not re-sent by default', async (status) => {
    const calls = answerInTurn(() => new HttpResponse('busy', { status, headers: { 'retry-after': '0' } }));
    const error = await rejection(makeClient().send(REQUEST));
    expect(error).toMatchObject({ code: 'HTTP_STATUS', outcome: 'unknown', httpStatus: status, retryAfterMs: 0 });
    expect(calls.count()).toBe(1);
  });

  it('with retryUnknownOutcome, HTTP 503 is re-sent until it succeeds', async () => {
    const busy = () => new HttpResponse('busy', { status: 503 });
    const calls = answerInTurn(busy, busy, ok);
    await expect(makeClient({ retryUnknownOutcome: true }).send(REQUEST)).resolves.toMatchObject({ attempts: 3 });
    expect(calls.count()).toBe(3);
  });

  it('with retryUnknownOutcome, a service error code is still never re-sent', async () => {
    const calls = answerInTurn(() =>
      HttpResponse.json({ Code: 'Throttling', Message: 'slow down', RequestId: 'r' }, { status: 429 }),
    );
    const error = await rejection(makeClient({ retryUnknownOutcome: true }).send(REQUEST));
    expect(error).toMatchObject({ code: 'Throttling', outcome: 'rejected' });
    expect(calls.count()).toBe(1);
  });
});

describe('caller abort', () => {
  it('an abort in flight rejects ABORTED at once, outcome unknown, without a re-send', async () => {
    const controller = new AbortController();
    let count = 0;
    server.use(
      http.all(`${BASE_URL}/`, async () => {
        count += 1;
        controller.abort(new Error('user gave up'));
        return stall();
      }),
    );
    // The time-out is far beyond the test's own, so only the abort can end this send.
    const error = await rejection(
      makeClient({ timeoutMs: 600_000, retryUnknownOutcome: true }).send(REQUEST, { signal: controller.signal }),
    );
    expect(error).toMatchObject({ code: 'ABORTED', outcome: 'unknown', attempts: 1 });
    expect(count).toBe(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const calls = answerInTurn(ok);
    const error = await rejection(makeClient().send(REQUEST, { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ code: 'ABORTED', outcome: 'not_sent', attempts: 0 });
    expect(calls.count()).toBe(0);
  });

  it('an abort during the back-off after a refused connection: nothing was sent', async () => {
    const controller = new AbortController();
    let calls = 0;
    const fetch: FetchLike = async () => {
      calls += 1;
      throw refused();
    };
    const noop = () => {};
    // The transport logs "retrying in …" right before it waits: abort there.
    const logger = { debug: noop, warn: noop, error: noop, info: () => controller.abort() };
    const error = await rejection(
      makeClient({ fetch, logger, retry: { retries: 2, minDelayMs: 600_000, maxDelayMs: 600_000 } }).send(REQUEST, {
        signal: controller.signal,
      }),
    );
    expect(error).toMatchObject({ code: 'ABORTED', outcome: 'not_sent', attempts: 1 });
    expect(calls).toBe(1);
  });
});
