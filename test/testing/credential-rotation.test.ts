import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  EICAR_RECORD,
  SANDBOX_ACCOUNTS,
  SANDBOX_API_KEY,
  SANDBOX_NOT_DETECTED_HASH,
} from '../../src/doubles/defaults.js';
import { HashScanClient } from '../../src/hashscan/hashscan-client.js';
import { SmsClient, type SmsCredentials } from '../../src/sms/index.js';
import { REQUEST, rejection } from '../sms/sms-service.js';
import { ADAPTERS, type Harness, startHarness } from './harness.js';

const NOW = new Date('2030-03-01T09:00:00Z').getTime();
const SEND = { ...REQUEST, templateCode: 'SMS_100000001' };
const { member, free } = SANDBOX_ACCOUNTS;
const keysOf = (account: typeof member, expiresAt?: number): SmsCredentials => ({
  accessKeyId: account.accessKeyId,
  accessKeySecret: account.accessKeySecret,
  expiresAt,
});

describe.each(ADAPTERS)('credential providers against the %s double', (adapter) => {
  let harness: Harness | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await harness?.close();
    harness = undefined;
  });

  it('SMS: one provider call for concurrent sends, a new one after expiry; each signature checked by the double', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    harness = await startHarness(adapter);
    const answers = [keysOf(member, NOW + 10 * 60_000), keysOf(free, NOW + 20 * 60_000)];
    let calls = 0;
    const sms = new SmsClient({
      baseUrl: harness.smsUrl,
      retry: false,
      credentials: async () => {
        calls += 1;
        return answers.shift() ?? keysOf(member);
      },
    });
    await Promise.all(Array.from({ length: 5 }, () => sms.send(SEND)));
    expect(calls).toBe(1);
    vi.setSystemTime(NOW + 9 * 60_000);
    await sms.send(SEND);
    expect(calls).toBe(1);
    // Within 10 s of expiry: fetched again before the request.
    vi.setSystemTime(NOW + 10 * 60_000 - 5_000);
    await sms.send(SEND);
    expect(calls).toBe(2);
    expect(harness.messages.map((message) => message.accessKeyId)).toEqual([
      ...Array(6).fill(member.accessKeyId),
      free.accessKeyId,
    ]);
    expect(harness.requests.every((request) => request.outcome === 'OK')).toBe(true);
  });

  it('SMS: a failing provider fails that send with CREDENTIALS and sends nothing; the next send asks again', async () => {
    harness = await startHarness(adapter);
    let calls = 0;
    const sms = new SmsClient({
      baseUrl: harness.smsUrl,
      credentials: () => {
        calls += 1;
        if (calls === 1) throw new Error('secrets manager unavailable');
        if (calls === 2) return undefined as unknown as SmsCredentials;
        return keysOf(member);
      },
    });
    const thrown = await rejection(sms.send(SEND));
    expect(thrown).toMatchObject({ code: 'CREDENTIALS', outcome: 'not_sent', attempts: 0, category: 'auth' });
    expect(thrown.message).toBe('credentials: the provider failed');
    expect((thrown.cause as Error).cause).toMatchObject({ message: 'secrets manager unavailable' });
    const empty = await rejection(sms.send(SEND));
    expect(empty).toMatchObject({ code: 'CREDENTIALS', message: 'credentials: the provider returned no credentials' });
    expect(harness.requests).toHaveLength(0);
    await expect(sms.send(SEND)).resolves.toMatchObject({ code: 'OK' });
    expect(calls).toBe(3);
  });

  it('SMS: keys the service refuses are fetched again on the next send', async () => {
    harness = await startHarness(adapter);
    const answers = [keysOf({ ...member, accessKeyId: 'revoked-key-id' }), keysOf(member)];
    const sms = new SmsClient({ baseUrl: harness.smsUrl, credentials: () => answers.shift() ?? keysOf(free) });
    await expect(sms.send(SEND)).rejects.toMatchObject({ code: 'InvalidAccessKeyId.NotFound', category: 'auth' });
    await expect(sms.send(SEND)).resolves.toMatchObject({ code: 'OK' });
    expect(harness.messages.map((message) => message.accessKeyId)).toEqual([member.accessKeyId]);
  });

  it('hash lookups: the key rotates, the cache (keyed on the source) survives it, a refused key is fetched again', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    harness = await startHarness(adapter);
    const answers: unknown[] = [{ apiKey: SANDBOX_API_KEY, expiresAt: NOW + 60_000 }, 'a-revoked-key', SANDBOX_API_KEY];
    let calls = 0;
    const client = new HashScanClient({
      baseUrl: harness.hashScanUrl,
      retry: false,
      apiKey: () => {
        calls += 1;
        return answers.shift() as string;
      },
    });
    await expect(client.scan(EICAR_RECORD.sha256)).resolves.toMatchObject({ verdict: 'malicious' });
    vi.setSystemTime(NOW + 120_000);
    // Cached: no request, no provider call.
    await expect(client.scan(EICAR_RECORD.sha256)).resolves.toMatchObject({ verdict: 'malicious' });
    expect(calls).toBe(1);
    await expect(client.scan(SANDBOX_NOT_DETECTED_HASH)).rejects.toMatchObject({ code: 'HTTP_STATUS', status: 401 });
    expect(calls).toBe(2);
    await expect(client.scan(SANDBOX_NOT_DETECTED_HASH)).resolves.toMatchObject({ verdict: 'not_detected' });
    expect(calls).toBe(3);
    expect(harness.requests).toHaveLength(3);
  });

  it('hash lookups: a failing provider is a CREDENTIALS outcome in a batch, and nothing is sent', async () => {
    harness = await startHarness(adapter);
    const client = new HashScanClient({
      baseUrl: harness.hashScanUrl,
      apiKey: async () => {
        throw new Error('vault sealed');
      },
    });
    const [outcome] = await client.scanMany([EICAR_RECORD.sha256]);
    expect(outcome).toMatchObject({ verdict: 'error', error: { code: 'CREDENTIALS', attempts: 0 } });
    expect(harness.requests).toHaveLength(0);
  });
});
