import { afterAll, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { SmsClient, type SmsClientOptions } from '../../src/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/start-sandbox.js';

/** `limits` without `fleet`: counted in this process, so one server protects its OTP endpoint without Redis. */
describe('SmsClient limits without a fleet', () => {
  const sandboxes: Sandbox[] = [];
  afterAll(async () => {
    await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
  });

  async function client(options: Partial<SmsClientOptions>) {
    const sandbox = await startSandbox();
    sandboxes.push(sandbox);
    const sms = new SmsClient({
      accessKeyId: sandbox.accessKeyId,
      accessKeySecret: sandbox.accessKeySecret,
      baseUrl: sandbox.smsUrl,
      ...options,
    });
    const send = (phoneNumbers: string | string[], templateCode = 'SMS_100000001') =>
      sms.send({ phoneNumbers, templateCode, signName: 'Sandbox', templateParam: { code: '123456' } });
    return { sandbox, sms, send };
  }

  it('refuses the send over a per-recipient limit, without a request; other numbers go on', async () => {
    const { sandbox, sms, send } = await client({ limits: { perRecipient: { perHour: 2 } } });
    await expect(send('13800000001')).resolves.toMatchObject({ code: 'OK' });
    await expect(send('13800000001')).resolves.toMatchObject({ code: 'OK' });
    const refused = await send('13800000001').catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'SEND_LIMITED', outcome: 'not_sent', category: 'rate_limit' });
    expect((refused as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(3_000_000);
    expect((refused as Error).message).toContain('limits.perRecipient.perHour');
    expect((refused as Error).message).not.toContain('13800000001');
    await expect(send('13800000002')).resolves.toMatchObject({ code: 'OK' });
    expect(sandbox.messages).toHaveLength(3);
    expect(sandbox.requests).toHaveLength(3);
    expect(sms.stats().limits).toMatchObject({ allowed: 3, refused: 1, storeFailures: 0 });
    expect(sms.stats().fleet).toBeUndefined();
    expect(sms.toJSON()).toMatchObject({ limits: { perHour: 2, countedIn: 'process' } });
  });

  it('holds the daily budget, counted one per phone number, until the next UTC day', async () => {
    const { sandbox, send } = await client({ limits: { dailyBudget: 3 } });
    await expect(send(['13800000001', '13800000002'])).resolves.toMatchObject({ code: 'OK' });
    const refused = await send(['13800000003', '13800000004']).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'SEND_LIMITED', outcome: 'not_sent' });
    const untilMidnight = 86_400_000 - (Date.now() % 86_400_000);
    expect((refused as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(untilMidnight + 1_000);
    await expect(send('13800000003')).resolves.toMatchObject({ code: 'OK' });
    expect(sandbox.messages).toHaveLength(2);
  });

  it('a send the service refused gives its share back', async () => {
    const { sandbox, send } = await client({ limits: { perRecipient: { perMinute: 1 } } });
    await expect(send('13600000001', 'SMS_999')).rejects.toMatchObject({ outcome: 'rejected' });
    await expect(send('13600000001')).resolves.toMatchObject({ code: 'OK' });
    await expect(send('13600000001')).rejects.toMatchObject({ code: 'SEND_LIMITED' });
    expect(sandbox.messages).toHaveLength(1);
  });

  it('checks the option: whole numbers, onStoreFailure, and not both limits and fleet.limits', () => {
    const base = { accessKeyId: 'id', accessKeySecret: 'secret', baseUrl: 'https://s.test' };
    const redis = { sendCommand: async () => null, isReady: true, options: { disableOfflineQueue: true } };
    expect(() => new SmsClient({ ...base, limits: { perRecipient: { perMinute: 0 } } })).toThrow(
      /^limits\.perRecipient\.perMinute/,
    );
    expect(() => new SmsClient({ ...base, limits: { dailyBudget: 1, onStoreFailure: 'open' as never } })).toThrow(
      /limits\.onStoreFailure/,
    );
    const both = () =>
      new SmsClient({ ...base, limits: { dailyBudget: 1 }, fleet: { redis, limits: { dailyBudget: 2 } } });
    expect(both).toThrow(ConfigurationError);
    expect(both).toThrow(/fleet\.limits/);
  });

  it('fleet.limits, deprecated, still sets the same limits (shared through the fleet)', () => {
    const base = { accessKeyId: 'id', accessKeySecret: 'secret', baseUrl: 'https://s.test' };
    const redis = { sendCommand: async () => null, isReady: true, options: { disableOfflineQueue: true } };
    const limits = { perRecipient: { perMinute: 1 }, dailyBudget: 10 };
    const alias = new SmsClient({ ...base, fleet: { redis, limits } });
    const current = new SmsClient({ ...base, fleet: { redis }, limits });
    expect(alias.toJSON().limits).toEqual(current.toJSON().limits);
    expect(alias.toJSON().limits).toMatchObject({
      perMinute: 1,
      dailyBudget: 10,
      countedIn: 'fleet',
      onStoreFailure: 'local',
    });
  });

  it("SmsClient.stats().fleet holds only what means something for sends, not the lookups' counters", () => {
    const base = { accessKeyId: 'id', accessKeySecret: 'secret', baseUrl: 'https://s.test' };
    const redis = { sendCommand: async () => null, isReady: true, options: { disableOfflineQueue: true } };
    const sms = new SmsClient({ ...base, fleet: { redis }, limits: { dailyBudget: 10 } });
    expect(Object.keys(sms.stats().fleet ?? {}).sort()).toEqual(
      [
        'held',
        'heldMs',
        'holding',
        'pausedUntil',
        'pausesReported',
        'redisErrors',
        'redisOutOfRange',
        'redisSkipped',
        'sendsLimited',
      ].sort(),
    );
    expect(Object.keys(sms.stats().limits ?? {}).sort()).toEqual(
      ['allowed', 'allowedLocally', 'outOfRange', 'pending', 'refused', 'refusedUnavailable', 'storeFailures'].sort(),
    );
  });
});
