import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { generateCode } from '../../src/otp/otp-code.js';
import { useMswServer } from '../helpers/msw.js';
import {
  BASE_URL,
  e164Of,
  lastCode,
  manualClock,
  smsRejection,
  smsService,
  verifierOn,
  wrongCode,
} from './otp-helpers.js';

const server = useMswServer();
const PHONE = '+8613800138000';

describe('OtpVerifier: send and check', () => {
  it('sends a 6-digit code in the template value and checks it once (single use)', async () => {
    const { handlers, sms } = smsService(server);
    const verifier = verifierOn(sms);
    const sent = await verifier.send({ phoneNumber: '13800138000' });

    expect(handlers.messages).toHaveLength(1);
    expect(handlers.messages[0]?.phoneNumbers.map(e164Of)).toEqual([PHONE]);
    const code = lastCode(handlers, PHONE);
    expect(code).toMatch(/^\d{6}$/);
    expect(sent.requestId).toBe(handlers.messages[0]?.requestId);

    await expect(verifier.check({ phoneNumber: PHONE, code })).resolves.toEqual({ valid: true });
    await expect(verifier.check({ phoneNumber: PHONE, code })).resolves.toEqual({ valid: false, reason: 'not_found' });
  });

  it('treats every spelling of one phone as one verification', async () => {
    const { handlers, sms } = smsService(server);
    const verifier = verifierOn(sms, { resendCooldownMs: 0 });
    await verifier.send({ phoneNumber: '008613800138000' });
    const code = lastCode(handlers, PHONE);
    await expect(verifier.check({ phoneNumber: '138-0013-8000', code: wrongCode(code) })).resolves.toEqual({
      valid: false,
      reason: 'mismatch',
    });
    await expect(verifier.check({ phoneNumber: '+86 138 0013 8000', code })).resolves.toEqual({ valid: true });
  });

  it('refuses a resend to the same phone (any spelling) within the cool-down, with retryAfterMs', async () => {
    const { handlers, sms } = smsService(server);
    const clock = manualClock();
    const verifier = verifierOn(sms, { now: clock.now });
    await verifier.send({ phoneNumber: '13800138000' });
    clock.advance(10_000);
    const error = await smsRejection(verifier.send({ phoneNumber: '8613800138000' }));
    expect(error).toMatchObject({ code: 'RESEND_COOLDOWN', outcome: 'not_sent', retryAfterMs: 20_000 });
    expect(error.rateLimited).toBe(true);
    expect(handlers.messages).toHaveLength(1);

    clock.advance(20_000);
    await verifier.send({ phoneNumber: '+8613800138000' });
    expect(handlers.messages).toHaveLength(2);
    // The new code replaces the old one.
    const [first, second] = handlers.messages.map((m) => (m.templateParam as { code: string }).code);
    if (first !== second) {
      await expect(verifier.check({ phoneNumber: PHONE, code: first as string })).resolves.toMatchObject({
        reason: 'mismatch',
      });
    }
    await expect(verifier.check({ phoneNumber: PHONE, code: second as string })).resolves.toEqual({ valid: true });
  });

  it('expires a code after ttlMs (default 10 minutes), read through `now`', async () => {
    const { handlers, sms } = smsService(server);
    const clock = manualClock();
    const verifier = verifierOn(sms, { now: clock.now });
    const { expiresAt } = await verifier.send({ phoneNumber: PHONE });
    expect(expiresAt).toBe(clock.now() + 600_000);
    clock.advance(600_000);
    await expect(verifier.check({ phoneNumber: PHONE, code: lastCode(handlers, PHONE) })).resolves.toEqual({
      valid: false,
      reason: 'expired',
    });
  });

  it('allows maxAttempts checks (default 5), then answers too_many_attempts even to the right code', async () => {
    const { handlers, sms } = smsService(server);
    const verifier = verifierOn(sms);
    await verifier.send({ phoneNumber: PHONE });
    const code = lastCode(handlers, PHONE);
    for (let i = 0; i < 5; i += 1) {
      await expect(verifier.check({ phoneNumber: PHONE, code: wrongCode(code) })).resolves.toMatchObject({
        reason: 'mismatch',
      });
    }
    await expect(verifier.check({ phoneNumber: PHONE, code })).resolves.toEqual({
      valid: false,
      reason: 'too_many_attempts',
    });
  });

  it('rejects with the SmsError of a refused send, and the void code is not_found (no cool-down either)', async () => {
    // The double's faults key on the number as sent: SmsClient sends a mainland number as its 11 digits.
    const { handlers, sms } = smsService(server, { [PHONE.slice('+86'.length)]: 'isv.MOBILE_NUMBER_ILLEGAL' });
    const verifier = verifierOn(sms);
    const error = await smsRejection(verifier.send({ phoneNumber: PHONE }));
    expect(error).toMatchObject({ code: 'isv.MOBILE_NUMBER_ILLEGAL', outcome: 'rejected' });
    expect(handlers.messages).toHaveLength(0);
    await expect(verifier.check({ phoneNumber: PHONE, code: '000000' })).resolves.toMatchObject({
      reason: 'not_found',
    });
    // Nothing went out, so nothing holds a resend back.
    await expect(smsRejection(verifier.send({ phoneNumber: PHONE }))).resolves.toMatchObject({
      code: 'isv.MOBILE_NUMBER_ILLEGAL',
    });
  });

  it('keeps the code of an outcome-unknown send (it may have arrived) and rejects with its SmsError', async () => {
    let codeSent = '';
    const { sms } = smsService(server);
    server.use(
      http.all(`${BASE_URL}/`, async ({ request }) => {
        codeSent = JSON.parse(new URLSearchParams(await request.text()).get('TemplateParam') ?? '{}').code;
        // An answer that cannot be read: the service may have sent the message.
        return new HttpResponse('<html>gateway</html>', { status: 200 });
      }),
    );
    const verifier = verifierOn(sms);
    const error = await smsRejection(verifier.send({ phoneNumber: PHONE }));
    expect(error.outcome).toBe('unknown');
    expect(codeSent).toMatch(/^\d{6}$/);
    // The cool-down holds: a second message may be a duplicate.
    await expect(smsRejection(verifier.send({ phoneNumber: PHONE }))).resolves.toMatchObject({
      code: 'RESEND_COOLDOWN',
    });
    await expect(verifier.check({ phoneNumber: PHONE, code: codeSent })).resolves.toEqual({ valid: true });
  });

  it('refuses a number that is not one with InvalidParameter naming phoneNumber, before any request', async () => {
    const { handlers, sms } = smsService(server);
    const verifier = verifierOn(sms);
    await expect(smsRejection(verifier.send({ phoneNumber: '12' }))).resolves.toMatchObject({
      code: 'InvalidParameter',
      parameter: 'phoneNumber',
      outcome: 'not_sent',
    });
    await expect(smsRejection(verifier.check({ phoneNumber: 'call me', code: '1' }))).resolves.toMatchObject({
      parameter: 'phoneNumber',
    });
    expect(handlers.requests).toHaveLength(0);
  });
});

describe('generateCode', () => {
  it('draws again on bytes 250–255 instead of folding them (no modulo bias)', () => {
    const bytes = [255, 250, 7, 252, 13, 249, 100, 251, 5, 42, 99, 0];
    const spy = vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation((array) => {
      const view = array as Uint8Array;
      for (let i = 0; i < view.length; i += 1) view[i] = bytes.shift() ?? 1;
      return array;
    });
    try {
      expect(generateCode(6)).toBe('739052');
    } finally {
      spy.mockRestore();
    }
  });
});

describe('OtpVerifier options', () => {
  it('puts a codeLength-digit code in codeParam', async () => {
    const { handlers, sms } = smsService(server);
    await verifierOn(sms, { templateCode: 'SMS_100000003', codeParam: 'otp', codeLength: 8 }).send({
      phoneNumber: PHONE,
    });
    expect(handlers.messages[0]?.templateParam).toEqual({ otp: expect.stringMatching(/^\d{8}$/) });
  });

  it.each([
    ['templateCode', { templateCode: '' }],
    ['codeLength', { codeLength: 3 }],
    ['maxAttempts', { maxAttempts: 0 }],
    ['ttlMs', { ttlMs: -1 }],
    ['secret', { secret: 'too short' }],
    ['defaultRegion', { defaultRegion: 'XX' as 'CN' }],
    ['pumpingGuard.minConversionRate', { pumpingGuard: { minConversionRate: 2 } }],
    ['pumpingGuard.prefixDigits', { pumpingGuard: { prefixDigits: 0 } }],
  ] as const)('refuses a bad %s with a ConfigurationError naming it', (option, options) => {
    const { sms } = smsService(server);
    expect(() => verifierOn(sms, options)).toThrow(expect.objectContaining({ code: 'CONFIGURATION', option }));
  });

  it('refuses an empty caller with InvalidParameter, nothing sent', async () => {
    const { handlers, sms } = smsService(server);
    await expect(smsRejection(verifierOn(sms).send({ phoneNumber: PHONE, caller: '' }))).resolves.toMatchObject({
      parameter: 'caller',
    });
    expect(handlers.requests).toHaveLength(0);
  });
});
