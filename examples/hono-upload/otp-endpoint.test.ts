import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmsError, type SmsErrorInit } from '../../src/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { createApp } from './app.js';
import { checkAnswer, smsErrorAnswer } from './otp-answer.js';

const error = (init: Omit<SmsErrorInit, 'message'>): SmsError => new SmsError({ message: 'test', ...init });

describe('examples/hono-upload: the OTP error table', () => {
  it.each([
    [{ code: 'RESEND_COOLDOWN', outcome: 'not_sent', retryAfterMs: 12_300 }, 429, 13],
    [{ code: 'SEND_LIMITED', outcome: 'not_sent', retryAfterMs: 60_000 }, 429, 60],
    [{ code: 'DESTINATION_SUSPENDED', outcome: 'not_sent', retryAfterMs: 3_600_000 }, 429, 3600],
    [{ code: 'VERIFICATION_UNAVAILABLE', outcome: 'not_sent', retryAfterMs: 1_000 }, 503, 1],
    [{ code: 'LIMITS_UNAVAILABLE', outcome: 'not_sent', retryAfterMs: 500 }, 503, 1],
    [{ code: 'CIRCUIT_OPEN', outcome: 'not_sent' }, 503, 30],
    [{ code: 'NETWORK', outcome: 'not_sent' }, 503, 30],
    [{ code: 'OUTCOME_UNKNOWN', outcome: 'unknown' }, 202, 30],
    [{ code: 'INVALID_RESPONSE', outcome: 'unknown' }, 202, 30],
    [{ code: 'DESTINATION_BLOCKED', outcome: 'not_sent' }, 422, undefined],
    [{ code: 'isv.MOBILE_NUMBER_ILLEGAL', outcome: 'rejected' }, 422, undefined],
    [{ code: 'isv.BUSINESS_LIMIT_CONTROL', outcome: 'rejected' }, 429, 60],
    [{ code: 'InvalidParameter', outcome: 'not_sent', parameter: 'phoneNumber' }, 400, undefined],
    [{ code: 'InvalidParameter', outcome: 'not_sent', parameter: 'templateParam' }, 500, undefined],
    [{ code: 'isv.AMOUNT_NOT_ENOUGH', outcome: 'rejected' }, 500, undefined],
    [{ code: 'SignatureDoesNotMatch', outcome: 'rejected' }, 500, undefined],
  ] as const)('%o → %i, Retry-After %s', (init, status, retryAfterSeconds) => {
    const answer = smsErrorAnswer(error(init), 30_000);
    expect(answer.status).toBe(status);
    expect(answer.retryAfterSeconds).toBe(retryAfterSeconds);
  });

  it('answers a check: 200 valid, 429 past the attempts, 400 otherwise', () => {
    expect(checkAnswer({ valid: true }).status).toBe(200);
    expect(checkAnswer({ valid: false, reason: 'too_many_attempts' }).status).toBe(429);
    for (const reason of ['mismatch', 'expired', 'not_found'] as const) {
      expect(checkAnswer({ valid: false, reason })).toEqual({ status: 400, body: { error: reason } });
    }
  });
});

describe('examples/hono-upload in Node: the OTP routes and the declared upload size', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => sandbox?.close());

  const app = () =>
    createApp({
      hashScan: { baseUrl: sandbox.hashScanUrl, apiKey: sandbox.apiKey },
      sms: { baseUrl: sandbox.smsUrl, accessKeyId: sandbox.accessKeyId, accessKeySecret: sandbox.accessKeySecret },
      templateCode: 'SMS_100000001',
    });
  const post = (hono: ReturnType<typeof createApp>, path: string, body: unknown) =>
    hono.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('sends a code and checks it once', async () => {
    const hono = app();
    expect((await post(hono, '/otp', { phone: '13800000001' })).status).toBe(200);
    const code = (sandbox.messages.at(-1)?.templateParam as { code?: string } | undefined)?.code ?? '';
    expect((await post(hono, '/otp/check', { phone: '+8613800000001', code })).status).toBe(200);
    expect(await (await post(hono, '/otp/check', { phone: '+8613800000001', code })).json()).toEqual({
      error: 'not_found',
    });
  });

  it('refuses a declared Content-Length past the limit before reading the body', async () => {
    let pulled = false;
    // highWaterMark 0: nothing is pulled until someone reads.
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled = true;
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const response = await app().request('/upload', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(50 * 1024 * 1024) },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(pulled).toBe(false);
  });
});
