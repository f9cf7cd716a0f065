import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_ACCOUNTS } from '../../src/doubles/defaults.js';
import { SmsClient, type SmsClientOptions } from '../../src/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/start-sandbox.js';
import { spellingsOf } from '../phone/spellings.js';

/*
 * The limits without `fleet`, as an attacker and a new user met them: one phone in many spellings, and
 * many clients of one account in one process (a client per request, a dev-server reload). Each test uses
 * its own numbers: every client of the sandbox's account in this file counts into the same process counts.
 */
describe('SmsClient limits: canonical numbers, counted for the whole process', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ sms: { accounts: [SANDBOX_ACCOUNTS.member, SANDBOX_ACCOUNTS.free] } });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  const client = (options: Partial<SmsClientOptions> = {}) =>
    new SmsClient({
      accessKeyId: sandbox.accessKeyId,
      accessKeySecret: sandbox.accessKeySecret,
      baseUrl: sandbox.smsUrl,
      ...options,
    });
  const send = (sms: SmsClient, phoneNumbers: string | string[], caller?: string) =>
    sms.send(
      { phoneNumbers, templateCode: 'SMS_100000001', signName: 'Sandbox', templateParam: { code: '123456' } },
      caller === undefined ? undefined : { caller },
    );
  const outcome = (sending: Promise<unknown>) =>
    sending.then(
      () => 'OK',
      (error: unknown) => (error as { code: string }).code,
    );
  /** Messages the sandbox delivered to one national number (it is sent in that form whatever the spelling). */
  const deliveredTo = (national: string) =>
    sandbox.messages.filter((message) => message.phoneNumbers.includes(national)).length;

  it('every spelling of one phone is one number: perDay 1 lets one message through', async () => {
    const sms = client({ limits: { perRecipient: { perDay: 1 } } });
    const spellings = spellingsOf('13800138000');
    const outcomes = [];
    for (const spelling of spellings) outcomes.push(await outcome(send(sms, spelling)));
    expect(outcomes).toEqual(['OK', ...spellings.slice(1).map(() => 'SEND_LIMITED')]);
    expect(deliveredTo('13800138000')).toBe(1);
    expect(sms.stats().limits).toMatchObject({ allowed: 1, refused: spellings.length - 1 });
  });

  it('one send to four spellings of one phone is refused before any request, and bills nothing', async () => {
    const sms = client({ limits: { dailyBudget: 100 } });
    const before = sandbox.requests.length;
    const refused = await send(sms, ['13900139000', '+8613900139000', '8613900139000', '008613900139000']).catch(
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ code: 'InvalidParameter', parameter: 'phoneNumbers[1]', outcome: 'not_sent' });
    expect(sandbox.requests.length).toBe(before);
    expect(sms.stats().limits).toMatchObject({ allowed: 0, refused: 0 });
  });

  it('five clients of one account in one process send one message under perDay 1 and dailyBudget 1', async () => {
    const limits = { perRecipient: { perDay: 1 }, dailyBudget: 1 };
    const clients = Array.from({ length: 5 }, () => client({ limits }));
    const outcomes = [];
    for (const sms of clients) outcomes.push(await outcome(send(sms, '+86 137 0013 7000')));
    expect(outcomes).toEqual(['OK', 'SEND_LIMITED', 'SEND_LIMITED', 'SEND_LIMITED', 'SEND_LIMITED']);
    // Built after the sends, a sixth client finds the counts: it cannot reset them.
    expect(await outcome(send(client({ limits }), '13700137000'))).toBe('SEND_LIMITED');
    expect(deliveredTo('13700137000')).toBe(1);
  });

  it('a client built per request (as in the Worker example) keeps the limit', async () => {
    const handle = (phone: string) => send(client({ limits: { perRecipient: { perHour: 2 } } }), phone);
    const outcomes = [];
    for (const phone of ['13600136000', '+8613600136000', '008613600136000', '13600136000']) {
      outcomes.push(await outcome(handle(phone)));
    }
    expect(outcomes).toEqual(['OK', 'OK', 'SEND_LIMITED', 'SEND_LIMITED']);
    expect(deliveredTo('13600136000')).toBe(2);
  });

  it('a second client with other limits enforces its own over the shared counts', async () => {
    const strict = client({ limits: { perRecipient: { perDay: 1 } } });
    const loose = client({ limits: { perRecipient: { perDay: 3 } } });
    expect(await outcome(send(strict, '13500135000'))).toBe('OK');
    expect(await outcome(send(loose, '13500135000'))).toBe('OK');
    expect(await outcome(send(strict, '13500135000'))).toBe('SEND_LIMITED');
    expect(await outcome(send(loose, '13500135000'))).toBe('OK');
    expect(await outcome(send(loose, '13500135000'))).toBe('SEND_LIMITED');
    expect(deliveredTo('13500135000')).toBe(3);
  });

  it('clients of another access key id count apart', async () => {
    const limits = { perRecipient: { perDay: 1 } };
    const other = client({ limits, ...SANDBOX_ACCOUNTS.free });
    expect(await outcome(send(client({ limits }), '13400134000'))).toBe('OK');
    expect(await outcome(send(other, '13400134000'))).toBe('OK');
    expect(await outcome(send(other, '13400134000'))).toBe('SEND_LIMITED');
  });

  it('clients given one credentials provider share their counts', async () => {
    const { accessKeyId, accessKeySecret } = sandbox;
    const provider = () => ({ accessKeyId, accessKeySecret });
    const limits = { perRecipient: { perDay: 1 } };
    const byProvider = () => new SmsClient({ credentials: provider, baseUrl: sandbox.smsUrl, limits });
    expect(await outcome(send(byProvider(), '13300133000'))).toBe('OK');
    expect(await outcome(send(byProvider(), '+8613300133000'))).toBe('SEND_LIMITED');
  });

  it('perCaller: one caller spreading sends over many numbers is refused past its limit, naming the limit only', async () => {
    const sms = client({ limits: { perCaller: { perMinute: 3 } } });
    const caller = '203.0.113.7';
    expect(await outcome(send(sms, '13200132001', caller))).toBe('OK');
    expect(await outcome(send(sms, ['13200132002', '13200132003'], caller))).toBe('OK');
    const refused = await send(sms, '13200132004', caller).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'SEND_LIMITED', outcome: 'not_sent', category: 'rate_limit' });
    expect((refused as Error).message).toContain('limits.perCaller.perMinute');
    expect((refused as Error).message).not.toContain(caller);
    expect((refused as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
    expect((refused as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(60_000);
    // Another caller, and a send without one, are not counted against it.
    expect(await outcome(send(sms, '13200132004', '203.0.113.8'))).toBe('OK');
    expect(await outcome(send(sms, '13200132005'))).toBe('OK');
    // Another client of the account sees the same caller's count.
    expect(await outcome(send(client({ limits: { perCaller: { perMinute: 3 } } }), '13200132006', caller))).toBe(
      'SEND_LIMITED',
    );
    expect(sms.toJSON()).toMatchObject({ limits: { perCaller: { perMinute: 3 }, countedIn: 'process' } });
    // The caller is user data: in no stats, settings or inspection of the client.
    for (const dump of [JSON.stringify(sms.stats()), JSON.stringify(sms), inspect(sms, { depth: 10 })]) {
      expect(dump).not.toContain(caller);
    }
  });

  it('caller: a non-empty string of at most 256 characters, refused otherwise without quoting it', async () => {
    const sms = client({ limits: { perCaller: { perMinute: 3 } } });
    const before = sandbox.requests.length;
    for (const caller of ['', '   ', 'x'.repeat(257), 42, null, '\uD800']) {
      const refused = await send(sms, '13100131000', caller as string).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 'InvalidParameter', parameter: 'caller', outcome: 'not_sent' });
      expect((refused as Error).message).not.toContain('xxxxx');
    }
    expect(sandbox.requests.length).toBe(before);
    expect(() => client({ limits: { perCaller: { perHour: 0 } } })).toThrow(/^limits\.perCaller\.perHour/);
  });
});
