import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../src/observe/logger.js';
import { SmsClient } from '../../src/sms/index.js';
import { useMswServer } from '../helpers/msw.js';
import { BASE_URL, makeClient, REQUEST, type Received, rejection, serveSms, signedWithTestKey } from './sms-service.js';

const server = useMswServer();
const MINUTE = 60_000;
const NOW = new Date('2030-06-01T12:00:00.000Z');

afterEach(() => {
  vi.useRealTimers();
});

/** A service whose clock is `skewMs` away from ours: answers `code` while the timestamp is off, else OK. */
function serveWithClock(skewMs: number, answers: (params: Record<string, string>, call: number) => string | undefined) {
  const received = serveSms(server);
  let call = 0;
  server.use(
    http.all(`${BASE_URL}/`, async ({ request }) => {
      const serverNow = Date.now() + skewMs;
      const text = request.method === 'GET' ? new URL(request.url).search.slice(1) : await request.clone().text();
      const params = Object.fromEntries(new URLSearchParams(text.replace(/\+/g, '%2B')));
      call += 1;
      const code = answers(params, call);
      if (code === undefined) return undefined; // falls through to serveSms, which checks the signature
      const headers = { date: new Date(serverNow).toUTCString() };
      return HttpResponse.json({ Code: code, Message: 'refused', RequestId: '' }, { status: 400, headers });
    }),
  );
  return received;
}

/** The vendor's rule: a Timestamp more than 15 minutes from the server's clock is refused. */
const expiredUnlessWithin = (skewMs: number) => (params: Record<string, string>) =>
  Math.abs(Date.parse(params.Timestamp ?? '') - (Date.now() + skewMs)) > 15 * MINUTE
    ? 'InvalidTimeStamp.Expired'
    : undefined;

const timestamps = (received: readonly Received[]) => received.map((request) => request.params.Timestamp);

describe('clock skew', () => {
  it.each([20 * MINUTE, -20 * MINUTE])(
    'a server %i ms away: re-signed once with the corrected time, and later sends use the offset',
    async (skewMs) => {
      vi.useFakeTimers({ toFake: ['Date'], now: NOW });
      const received = serveWithClock(skewMs, expiredUnlessWithin(skewMs));
      const client = makeClient();

      await expect(client.send(REQUEST)).resolves.toMatchObject({ code: 'OK', attempts: 2 });
      expect(client.clockOffsetMs).toBe(skewMs);
      const corrected = new Date(NOW.getTime() + skewMs).toISOString().replace('.000', '');
      expect(received.map((r) => r.signatureValid)).toEqual([true]);
      expect(timestamps(received)).toEqual([corrected]);

      // An hour later the offset still holds: one request, signed with the corrected time.
      vi.setSystemTime(NOW.getTime() + 60 * MINUTE);
      await expect(client.send(REQUEST)).resolves.toMatchObject({ code: 'OK', attempts: 1 });
      expect(received).toHaveLength(2);
      expect(received[1]?.signatureValid).toBe(true);
      expect(Date.parse(received[1]?.params.Timestamp ?? '')).toBe(NOW.getTime() + 60 * MINUTE + skewMs);
    },
  );

  it('a timestamp refused again after the correction is not sent a third time', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const seen: string[] = [];
    serveWithClock(20 * MINUTE, (params) => {
      seen.push(params.Timestamp ?? '');
      return 'InvalidTimeStamp.Expired';
    });
    const error = await rejection(makeClient({ retryUnknownOutcome: true }).send(REQUEST));
    expect(error).toMatchObject({
      code: 'InvalidTimeStamp.Expired',
      outcome: 'rejected',
      category: 'auth',
      attempts: 2,
    });
    expect(seen).toEqual(['2030-06-01T12:00:00Z', '2030-06-01T12:20:00Z']);
  });

  it('InvalidTimeStamp.Format is re-signed once too', async () => {
    const received = serveWithClock(0, (_params, call) => (call === 1 ? 'InvalidTimeStamp.Format' : undefined));
    await expect(makeClient().send(REQUEST)).resolves.toMatchObject({ code: 'OK', attempts: 2 });
    expect(received.map((r) => r.signatureValid)).toEqual([true]);
  });

  it('SignatureNonceUsed: re-sent once with a new nonce and a valid signature', async () => {
    const nonces: string[] = [];
    const received = serveWithClock(0, (params, call) => {
      nonces.push(params.SignatureNonce ?? '');
      return call === 1 ? 'SignatureNonceUsed' : undefined;
    });
    await expect(makeClient({ retry: false }).send(REQUEST)).resolves.toMatchObject({ code: 'OK', attempts: 2 });
    expect(new Set(nonces).size).toBe(2);
    expect(received.map((r) => signedWithTestKey(r.method, r.params))).toEqual([true]);
    expect(received[0]?.params.SignatureNonce).toBe(nonces[1]);
  });

  it('SignatureNonceUsed twice: the second refusal is the answer', async () => {
    let calls = 0;
    serveWithClock(0, () => {
      calls += 1;
      return 'SignatureNonceUsed';
    });
    await expect(makeClient().send(REQUEST)).rejects.toMatchObject({ code: 'SignatureNonceUsed', attempts: 2 });
    expect(calls).toBe(2);
  });

  it('no re-send when an earlier attempt may have delivered the message', async () => {
    let calls = 0;
    server.use(
      http.all(`${BASE_URL}/`, () => {
        calls += 1;
        if (calls === 1) return new HttpResponse('busy', { status: 503 });
        return HttpResponse.json({ Code: 'InvalidTimeStamp.Expired', Message: 'x', RequestId: '' }, { status: 400 });
      }),
    );
    const error = await rejection(makeClient({ retryUnknownOutcome: true }).send(REQUEST));
    expect(error).toMatchObject({ code: 'InvalidTimeStamp.Expired', outcome: 'unknown' });
    expect(calls).toBe(2);
  });

  it('learns a large skew from any answer, ignores a small one and a bad Date header', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const dates = [
      new Date(NOW.getTime() + 60_000).toUTCString(), // one minute: noise, kept at 0
      'not a date',
      new Date(NOW.getTime() - 7 * MINUTE).toUTCString(), // seven minutes: learnt
    ];
    const seen: string[] = [];
    server.use(
      http.all(`${BASE_URL}/`, async ({ request }) => {
        seen.push(new URLSearchParams(await request.text()).get('Timestamp') ?? '');
        return HttpResponse.json(
          { Code: 'OK', Message: 'OK', RequestId: 'r' },
          { headers: { date: dates.shift() ?? new Date(Date.now() - 7 * MINUTE).toUTCString() } },
        );
      }),
    );
    const lines: string[] = [];
    const log = (message: string) => lines.push(message);
    const logger: Logger = { debug: () => {}, info: log, warn: log, error: log };
    const client = makeClient({ logger });
    await client.send(REQUEST);
    expect(client.clockOffsetMs).toBe(0);
    await client.send(REQUEST);
    expect(client.clockOffsetMs).toBe(0);
    await client.send(REQUEST);
    expect(client.clockOffsetMs).toBe(-7 * MINUTE);
    await client.send(REQUEST);
    expect(seen).toEqual([
      '2030-06-01T12:00:00Z',
      '2030-06-01T12:00:00Z',
      '2030-06-01T12:00:00Z',
      '2030-06-01T11:53:00Z',
    ]);
    expect(lines).toEqual([expect.stringContaining('corrected by -420000 ms')]);
    expect(JSON.parse(JSON.stringify(client))).toMatchObject({ clockOffsetMs: -7 * MINUTE });
  });

  it('the offset belongs to one client', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    serveWithClock(20 * MINUTE, expiredUnlessWithin(20 * MINUTE));
    const first = makeClient();
    await first.send(REQUEST);
    const second = new SmsClient({ ...makeClientOptions() });
    expect(first.clockOffsetMs).toBe(20 * MINUTE);
    expect(second.clockOffsetMs).toBe(0);
  });
});

function makeClientOptions() {
  return { accessKeyId: 'testKeyId0123', accessKeySecret: 'testSecret4567', baseUrl: BASE_URL };
}
