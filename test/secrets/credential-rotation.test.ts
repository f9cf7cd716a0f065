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
import { ADAPTERS, type Harness, startHarness } from '../testing/harness.js';

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
    expect(sms.stats()).toMatchObject({ requests: 0 }); // a request never sent is not counted
    await expect(sms.send(SEND)).resolves.toMatchObject({ code: 'OK' });
    expect(calls).toBe(3);
  });

  it('SMS: keys the service refuses are asked for again at once, and the send made once more with the new ones', async () => {
    harness = await startHarness(adapter);
    let calls = 0;
    const answers = [keysOf({ ...member, accessKeyId: 'revoked-key-id' }), keysOf(member)];
    const sms = new SmsClient({
      baseUrl: harness.smsUrl,
      credentials: () => {
        calls += 1;
        return answers.shift() ?? keysOf(free);
      },
    });
    await expect(sms.send(SEND)).resolves.toMatchObject({ code: 'OK', attempts: 2 });
    await expect(sms.send(SEND)).resolves.toMatchObject({ code: 'OK', attempts: 1 });
    expect(calls).toBe(2);
    expect(harness.messages.map((message) => message.accessKeyId)).toEqual([member.accessKeyId, member.accessKeyId]);
  });

  it('SMS: a rotated secret costs at most one refused request per send, one provider call for concurrent sends', async () => {
    harness = await startHarness(adapter);
    let calls = 0;
    const sms = new SmsClient({
      baseUrl: harness.smsUrl,
      credentials: async () => {
        calls += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        // The first answer is the secret from before a rotation: the service refuses it.
        return calls === 1 ? keysOf({ ...member, accessKeySecret: 'the-secret-before-rotation' }) : keysOf(member);
      },
    });
    const results = await Promise.all(Array.from({ length: 5 }, () => sms.send(SEND)));
    expect(results.map((result) => result.attempts)).toEqual([2, 2, 2, 2, 2]);
    expect(calls).toBe(2);
    expect(harness.requests).toHaveLength(10);
    await expect(sms.send(SEND)).resolves.toMatchObject({ attempts: 1 });
  });

  it('SMS: fixed keys are never asked for again: a refusal stands', async () => {
    harness = await startHarness(adapter);
    const sms = new SmsClient({ baseUrl: harness.smsUrl, credentials: keysOf({ ...member, accessKeyId: 'revoked' }) });
    await expect(sms.send(SEND)).rejects.toMatchObject({ code: 'InvalidAccessKeyId.NotFound', attempts: 1 });
    expect(harness.requests).toHaveLength(1);
  });

  it('hash lookups: the key rotates, the cache (keyed on the source) survives it, a refused key is asked for again at once', async () => {
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
    // The provider gives a revoked key: refused (401), asked again at once, the lookup made once more.
    await expect(client.scan(SANDBOX_NOT_DETECTED_HASH)).resolves.toMatchObject({ verdict: 'not_detected' });
    expect(calls).toBe(3);
    expect(harness.requests).toHaveLength(3);
    await expect(client.scan('0'.repeat(64))).resolves.toMatchObject({ verdict: 'not_detected' });
    expect(calls).toBe(3);
  });

  it('hash lookups: a rotated key costs at most one refused request per lookup, one provider call for concurrent ones', async () => {
    harness = await startHarness(adapter);
    let calls = 0;
    const client = new HashScanClient({
      baseUrl: harness.hashScanUrl,
      apiKey: async () => {
        calls += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return calls === 1 ? 'the-key-before-rotation' : SANDBOX_API_KEY;
      },
    });
    const hashes = Array.from({ length: 5 }, (_, i) => `${i}`.padStart(64, '0'));
    const outcomes = await client.scanMany(hashes);
    expect(outcomes.map((outcome) => outcome.verdict)).toEqual(Array(5).fill('not_detected'));
    expect(calls).toBe(2);
    expect(harness.requests).toHaveLength(10);
    expect(client.stats()).toMatchObject({ requests: 10, retries: 0 });
  });

  it('hash lookups: a fixed key is never asked for again: a 401 stands, with one request', async () => {
    harness = await startHarness(adapter);
    const client = new HashScanClient({ baseUrl: harness.hashScanUrl, apiKey: 'a-revoked-key' });
    await expect(client.scan(SANDBOX_NOT_DETECTED_HASH)).rejects.toMatchObject({ status: 401, attempts: 1 });
    expect(harness.requests).toHaveLength(1);
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
    expect(client.stats()).toMatchObject({ requests: 0 });
  });
});
