import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_ACCOUNTS } from '../../src/doubles/defaults.js';
import { SANDBOX_FAULT_PHONE_NUMBERS, SANDBOX_SMS_FAULTS } from '../../src/doubles/sms-checks.js';
import { SmsClient } from '../../src/sms/index.js';
import { REQUEST, rejection } from '../sms/sms-service.js';
import { ADAPTERS, type Harness, sendRaw, signed, smsParams, startHarness } from './harness.js';

describe.each(ADAPTERS)('the fault switch (%s)', (adapter) => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });
  const client = (smsUrl: string) => new SmsClient({ baseUrl: smsUrl, ...SANDBOX_ACCOUNTS.member, retry: false });

  it('produces each category on demand, as a rejection that sent nothing', async () => {
    harness = await startHarness(adapter);
    const sms = client(harness.smsUrl);
    for (const [category, phoneNumbers] of Object.entries(SANDBOX_FAULT_PHONE_NUMBERS)) {
      const error = await rejection(sms.send({ ...REQUEST, templateCode: 'SMS_100000001', phoneNumbers }));
      expect(error).toMatchObject({
        code: SANDBOX_SMS_FAULTS[phoneNumbers],
        category,
        rateLimited: category === 'rate_limit',
        outcome: 'rejected',
        attempts: 1,
      });
      expect(error.message).not.toContain(phoneNumbers);
    }
    expect(harness.messages).toHaveLength(0);
  });

  it('takes custom codes, and a fault number still needs a valid signature', async () => {
    harness = await startHarness(adapter, { sms: { faults: { '13800000009': 'isv.DAY_LIMIT_CONTROL' } } });
    const sms = client(harness.smsUrl);
    await expect(sms.send({ ...REQUEST, phoneNumbers: '13800000009' })).rejects.toMatchObject({
      code: 'isv.DAY_LIMIT_CONTROL',
      rateLimited: true,
    });
    // The default table is replaced: its numbers send normally.
    await expect(
      sms.send({ ...REQUEST, templateCode: 'SMS_100000001', phoneNumbers: SANDBOX_FAULT_PHONE_NUMBERS.account }),
    ).resolves.toMatchObject({ code: 'OK' });
    const wrong = new SmsClient({
      baseUrl: harness.smsUrl,
      ...SANDBOX_ACCOUNTS.member,
      accessKeySecret: 'wrong-secret',
    });
    await expect(wrong.send({ ...REQUEST, phoneNumbers: '13800000009' })).rejects.toMatchObject({
      code: 'SignatureDoesNotMatch',
      category: 'auth',
    });
  });

  it('a clock 20 minutes ahead: the client corrects itself after one refusal', async () => {
    harness = await startHarness(adapter, { sms: { clockOffsetMs: 20 * 60_000 } });
    const sms = client(harness.smsUrl);
    await expect(sms.send({ ...REQUEST, templateCode: 'SMS_100000001' })).resolves.toMatchObject({ attempts: 2 });
    await expect(sms.send({ ...REQUEST, templateCode: 'SMS_100000001' })).resolves.toMatchObject({ attempts: 1 });
    expect(harness.requests.map((request) => request.outcome)).toEqual(['InvalidTimeStamp.Expired', 'OK', 'OK']);
    expect(Math.abs(sms.clockOffsetMs - 20 * 60_000)).toBeLessThan(3_000);
    expect(harness.messages).toHaveLength(2);
  });

  it('checks Timestamp (format, tolerance) and nonces after the signature, and sends a Date header', async () => {
    harness = await startHarness(adapter, { sms: { timestampToleranceMs: 60_000 } });
    const { member } = SANDBOX_ACCOUNTS;
    const send = (overrides: Record<string, string | undefined>) =>
      sendRaw(harness?.smsUrl ?? '', 'POST', signed('POST', smsParams(member, overrides), member.accessKeySecret));
    const old = new Date(Date.now() - 5 * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    await expect(send({ Timestamp: old })).resolves.toMatchObject({ body: { Code: 'InvalidTimeStamp.Expired' } });
    await expect(send({ Timestamp: '2030-01-01 00:00:00' })).resolves.toMatchObject({
      body: { Code: 'InvalidTimeStamp.Format' },
    });
    await expect(send({ Timestamp: undefined })).resolves.toMatchObject({ body: { Code: 'InvalidTimeStamp.Format' } });
    await expect(send({ SignatureNonce: undefined })).resolves.toMatchObject({
      body: { Code: 'MissingSignatureNonce' },
    });
    await expect(send({ SignatureNonce: 'once' })).resolves.toMatchObject({ body: { Code: 'OK' } });
    await expect(send({ SignatureNonce: 'once' })).resolves.toMatchObject({ body: { Code: 'SignatureNonceUsed' } });
    // A bad signature is refused as such, before its timestamp is looked at.
    const forged = { ...signed('POST', smsParams(member, { Timestamp: old }), 'not-the-secret') };
    await expect(sendRaw(harness.smsUrl, 'POST', forged)).resolves.toMatchObject({
      body: { Code: 'SignatureDoesNotMatch' },
    });
    const response = await fetch(`${harness.smsUrl}/`, { method: 'POST', body: '' });
    const date = Date.parse(response.headers.get('date') ?? '');
    expect(Math.abs(date - Date.now())).toBeLessThan(5_000);
  });
});
