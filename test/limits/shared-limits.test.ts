import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SmsClient } from '../../src/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/start-sandbox.js';
import { freshPrefix } from '../fleet/fleet-helpers.js';
import { type DelayProxy, startDelayProxy } from '../helpers/delay-proxy.js';
import { describeWithRedis } from '../helpers/redis.js';

/*
 * The accounting of the shared limits against a real Redis behind a delaying
 * TCP proxy, and against keys written by the test as another writer of the
 * shared Redis would. One client in this process; the replicas' figures are
 * in slow-redis-replicas.test.ts.
 */
describeWithRedis(
  'SmsClient limits shared through Redis: what a slow Redis or a writer of Redis can do',
  (redisUrl) => {
    let sandbox: Sandbox;
    let proxy: DelayProxy;
    let admin: Redis;
    const clients: Redis[] = [];
    beforeAll(async () => {
      sandbox = await startSandbox();
      proxy = await startDelayProxy(Number(new URL(redisUrl).port), 0);
      admin = new Redis(redisUrl);
    });
    afterAll(async () => {
      for (const client of clients) client.disconnect();
      admin.disconnect();
      await proxy.close();
      await sandbox.close();
    });

    async function client(limits: Record<string, unknown>, options: { fetch?: typeof fetch } = {}) {
      const redis = new Redis(`redis://127.0.0.1:${proxy.port}`, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
      });
      redis.on('error', () => {});
      clients.push(redis);
      await new Promise((resolve) => redis.once('ready', resolve));
      const prefix = freshPrefix();
      const sms = new SmsClient({
        accessKeyId: sandbox.accessKeyId,
        accessKeySecret: sandbox.accessKeySecret,
        baseUrl: sandbox.smsUrl,
        ...options,
        fleet: { redis, prefix, timeoutMs: TIMEOUT_MS, limits },
      });
      const send = (phoneNumbers: string, templateCode = 'SMS_100000001') =>
        sms.send({ phoneNumbers, templateCode, signName: 'Sandbox', templateParam: { code: '123456' } });
      const keys = (pattern: string) => admin.keys(`${prefix}:*${pattern}*`);
      return { sms, send, keys };
    }

    // Generous against a loaded machine: a Redis call through the proxy can take tens of ms with no delay at all.
    const TIMEOUT_MS = 250;
    const SLOW_MS = 1_000;
    const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    it("'refuse': a take that timed out sends nothing, and once it ran late it is handed back, so it never refuses a later send", async () => {
      const { sms, send, keys } = await client({ perRecipient: { perHour: 3 }, onStoreFailure: 'refuse' });
      const before = sandbox.messages.length;
      proxy.setDelay(SLOW_MS);
      const refused = await send('13500000001').catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 'LIMITS_UNAVAILABLE', outcome: 'not_sent', category: 'rate_limit' });
      expect((refused as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
      expect((refused as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(1_000);
      expect(sandbox.messages.length).toBe(before);
      proxy.setDelay(0);
      await settle(1_500); // the late take has run; the link's step aside is over
      for (let sent = 0; sent < 3; sent++) await expect(send('13500000001')).resolves.toMatchObject({ code: 'OK' });
      await expect(send('13500000001')).rejects.toMatchObject({ code: 'SEND_LIMITED' });
      expect(sandbox.messages.length).toBe(before + 3);
      const [counter] = await keys('perHour');
      expect(await admin.get(counter as string)).toBe('3');
      expect(sms.stats().limits).toMatchObject({ allowed: 3, refused: 1, refusedUnavailable: 1, storeFailures: 1 });
    }, 30_000);

    it('a refund whose Redis call timed out is not credited to this replica while the points may still be in Redis', async () => {
      let slowed = false;
      const slowRefund: typeof fetch = async (input, init) => {
        // The take has answered; the refund after this rejected send will not answer in time.
        if (!slowed) proxy.setDelay(SLOW_MS);
        slowed = true;
        return fetch(input, init);
      };
      const { send } = await client({ perRecipient: { perHour: 1 } }, { fetch: slowRefund });
      const before = sandbox.messages.length;
      await expect(send('13500000002', 'SMS_999')).rejects.toMatchObject({ outcome: 'rejected' });
      await settle(TIMEOUT_MS + 150); // the refund has timed out
      // Redis is left alone for a second: this replica's own count still holds the point the refund may not have given back.
      await expect(send('13500000002')).rejects.toMatchObject({ code: 'SEND_LIMITED' });
      expect(sandbox.messages.length).toBe(before);
      proxy.setDelay(0);
      await settle(1_500);
      await expect(send('13500000002')).resolves.toMatchObject({ code: 'OK' });
      expect(sandbox.messages.length).toBe(before + 1);
    }, 30_000);

    it('a forged counter or time to live is a store failure, never a wait or a send beyond the cap', async () => {
      const { sms, send, keys } = await client({ perRecipient: { perHour: 2 }, onStoreFailure: 'refuse' });
      await expect(send('13500000003')).resolves.toMatchObject({ code: 'OK' });
      const [counter] = await keys('perHour');
      for (const forged of [
        ['1000000', 'PX', String(365 * 86_400_000)], // huge, for a year
        ['1', 'PX', String(365 * 86_400_000)], // in range, but a time to live past the window
        ['1'], // no expiry at all
        ['one', 'PX', '60000'], // not a number
        ['-5', 'PX', '60000'], // below zero
      ]) {
        await admin.set(counter as string, ...(forged as [string]));
        const refused = await send('13500000003').catch((error: unknown) => error);
        expect(refused, forged.join(' ')).toMatchObject({ code: 'LIMITS_UNAVAILABLE', outcome: 'not_sent' });
        expect((refused as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(1_000);
        await settle(1_100);
      }
      await admin.del(counter as string);
      await admin.hset(counter as string, 'a', '1'); // another type: the script fails
      await expect(send('13500000003')).rejects.toMatchObject({ code: 'LIMITS_UNAVAILABLE' });
      expect(await admin.type(counter as string)).toBe('hash');
      expect(sandbox.messages.filter((message) => message.phoneNumbers.includes('13500000003'))).toHaveLength(1);
      expect(sms.stats().limits?.storeFailures).toBe(6);
    }, 30_000);

    it("'local' with a forged counter: at most one message per number on this replica's own count", async () => {
      const { send, keys } = await client({ perRecipient: { perHour: 3 } });
      await expect(send('13500000004')).resolves.toMatchObject({ code: 'OK' });
      const [counter] = await keys('perHour');
      await admin.set(counter as string, '1000000', 'PX', String(365 * 86_400_000));
      await expect(send('13500000004')).resolves.toMatchObject({ code: 'OK' });
      for (let tries = 0; tries < 3; tries++) {
        await expect(send('13500000004')).rejects.toMatchObject({ code: 'LIMITS_UNAVAILABLE', outcome: 'not_sent' });
      }
      expect(await admin.get(counter as string)).toBe('1000000');
    }, 30_000);

    it("'local': a send let through while Redis could not count it is written to Redis once it answers", async () => {
      const { sms, send, keys } = await client({ perRecipient: { perHour: 3 } });
      const counterOf = async (number: string) => {
        // The hash of the canonical (E.164) number: these are mainland numbers in their national form.
        const tag = createHash('sha256').update(`+86${number}`).digest('base64url').slice(0, 22);
        const [key] = (await keys('perHour')).filter((name) => name.endsWith(tag));
        return key === undefined ? null : admin.get(key);
      };
      proxy.setDelay(SLOW_MS);
      await expect(send('13500000005')).resolves.toMatchObject({ code: 'OK' }); // the take timed out (it still runs late)
      await expect(send('13500000006')).resolves.toMatchObject({ code: 'OK' }); // the link steps aside: never sent to Redis
      expect(sms.stats().limits).toMatchObject({ allowedLocally: 2, pending: 2 });
      proxy.setDelay(0);
      await settle(2_200);
      await expect(send('13500000007')).resolves.toMatchObject({ code: 'OK' }); // Redis answers: what it missed is written first
      await settle(300);
      expect(await counterOf('13500000006')).toBe('1');
      expect(await counterOf('13500000005')).toBe('1');
      expect(sms.stats().limits?.pending).toBe(0);
    }, 30_000);
  },
);
