import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SmsClient } from '../../src/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/start-sandbox.js';
import { freshPrefix } from '../fleet/fleet-helpers.js';
import { describeWithRedis } from '../helpers/redis.js';

/*
 * The shared limits against keys written by the test as another writer of
 * the shared Redis would (a forged pause, a forged or lowered counter), and
 * against a long outage that fills the sends kept for Redis.
 */
describeWithRedis('SmsClient limits: their own step aside, lowered limits, and sends never forgotten', (redisUrl) => {
  let sandbox: Sandbox;
  let admin: Redis;
  const clients: Redis[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox();
    admin = new Redis(redisUrl);
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    admin.disconnect();
    await sandbox.close();
  });

  // Generous against a loaded machine.
  const TIMEOUT_MS = 250;
  const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  // Keys carry a hash of the canonical (E.164) number; these tests send mainland numbers in their national form.
  const tagOf = (number: string) => createHash('sha256').update(`+86${number}`).digest('base64url').slice(0, 22);

  async function client(limits: Record<string, unknown>, prefix = freshPrefix()) {
    const redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    redis.on('error', () => {});
    clients.push(redis);
    await new Promise((resolve) => redis.once('ready', resolve));
    const lines: string[] = [];
    const push = (line: string) => void lines.push(line);
    const sms = new SmsClient({
      logger: { debug: () => {}, info: push, warn: push, error: push },
      accessKeyId: sandbox.accessKeyId,
      accessKeySecret: sandbox.accessKeySecret,
      baseUrl: sandbox.smsUrl,
      fleet: { redis, prefix, timeoutMs: TIMEOUT_MS },
      limits,
    });
    const send = (phoneNumbers: string) =>
      sms.send({ phoneNumbers, templateCode: 'SMS_100000001', signName: 'Sandbox', templateParam: { code: '1' } });
    const refusal = (phoneNumbers: string) =>
      send(phoneNumbers).then(
        () => undefined,
        (error: unknown) => error,
      );
    /** The key of `limit` for `number` (or the budget's), once a send created it. */
    const counter = async (limit: string, number?: string) => {
      const keys = await admin.keys(`${prefix}:*:limits:${limit}*`);
      const key = keys.find((name) => number === undefined || name.endsWith(tagOf(number)));
      if (key === undefined) throw new Error(`no ${limit} counter`);
      return key;
    };
    const pauseKey = async () => `${(await counter('*')).split(':limits:')[0]}:pause`;
    return { sms, send, refusal, counter, pauseKey, redis, prefix, lines };
  }

  const sentTo = (number: string) => sandbox.messages.filter((m) => m.phoneNumbers.includes(number)).length;

  it('a forged pause with no expiry does not switch the shared limits off: another replica still sees the count', async () => {
    const a = await client({ perRecipient: { perHour: 1 }, onStoreFailure: 'refuse' });
    const b = await client({ perRecipient: { perHour: 1 }, onStoreFailure: 'refuse' }, a.prefix);
    await expect(a.send('13600000001')).resolves.toMatchObject({ code: 'OK' });
    await admin.set(await a.pauseKey(), '1'); // no expiry: out of range, never obeyed
    // Each send reads the pause (out of range: the pause, quota and lock step aside for a second).
    await expect(b.send('13600000002')).resolves.toMatchObject({ code: 'OK' });
    await settle(50);
    await expect(b.send('13600000003')).resolves.toMatchObject({ code: 'OK' });
    await settle(50);
    // The limits still ask Redis: the count of the other replica refuses, it is not "unavailable".
    await expect(b.refusal('13600000001')).resolves.toMatchObject({ code: 'SEND_LIMITED', outcome: 'not_sent' });
    expect(sentTo('13600000001')).toBe(1);
    expect(b.sms.stats().fleet?.redisErrors).toBeGreaterThanOrEqual(1); // the pause's out-of-range read
    expect(b.sms.stats().limits).toMatchObject({ storeFailures: 0, refused: 1, refusedUnavailable: 0 });
    // Said by the fleet's coordination, not by the limits.
    expect(b.lines.filter((line) => line.includes('PAUSE_OUT_OF_RANGE'))).toEqual([
      "sms: the fleet's Redis failed (PAUSE_OUT_OF_RANGE); each replica runs on its own until it answers again",
    ]);
    expect(b.lines.filter((line) => line.includes('sending limits'))).toEqual([]);
    await admin.del(await a.pauseKey());
  }, 30_000);

  it('a forged limit counter does not switch the fleet pause off', async () => {
    const c = await client({ perRecipient: { perHour: 2 } });
    await expect(c.send('13600000011')).resolves.toMatchObject({ code: 'OK' });
    const key = await c.counter('perHour', '13600000011');
    await admin.del(key);
    await admin.hset(key, 'forged', '1'); // another type: out of range, the limits step aside
    await expect(c.send('13600000011')).resolves.toMatchObject({ code: 'OK' }); // 'local': its one unrecorded send
    await admin.set(await c.pauseKey(), '1', 'PX', '1500'); // a pause a replica could have set: obeyed
    await settle(50); // the pause is read again at most every 20 ms, in the background
    await expect(c.send('13600000012')).resolves.toMatchObject({ code: 'OK' }); // reads the pause
    await settle(50);
    await expect(c.send('13600000013')).resolves.toMatchObject({ code: 'OK' });
    expect(c.sms.stats().fleet?.held).toBeGreaterThanOrEqual(1);
    expect(c.sms.stats().limits?.outOfRange).toBe(1);
    // Said by the limits' own link, and not as the fleet's coordination stepping aside.
    expect(c.lines.filter((line) => line.includes("the fleet's Redis failed"))).toEqual([
      "sms: the fleet's Redis failed (LIMIT_OUT_OF_RANGE); the sending limits count on this replica, or refuse (onStoreFailure), until it answers again",
    ]);
    await admin.del(key);
  }, 30_000);

  it('a lowered limit: a counter above it with an expiry within its window means "at the limit", not a failure', async () => {
    const d = await client({ perRecipient: { perHour: 2 }, dailyBudget: 100, onStoreFailure: 'refuse' });
    await expect(d.send('13600000021')).resolves.toMatchObject({ code: 'OK' });
    const key = await d.counter('perHour', '13600000021');
    await admin.set(key, '5', 'PX', '600000'); // left by a deploy with perHour: 5
    const refused = (await d.refusal('13600000021')) as { retryAfterMs: number };
    expect(refused).toMatchObject({ code: 'SEND_LIMITED', outcome: 'not_sent' });
    expect(refused.retryAfterMs).toBeGreaterThan(500_000);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(600_000);
    expect(await admin.get(key)).toBe('5'); // never written over
    // The day's budget lowered below what was sent today (its key lives two days).
    await admin.set(await d.counter('budget'), '150', 'PX', String(36 * 3_600_000));
    await expect(d.refusal('13600000022')).resolves.toMatchObject({ code: 'SEND_LIMITED' });
    expect(sentTo('13600000021') + sentTo('13600000022')).toBe(1);
    expect(d.sms.stats().limits).toMatchObject({ storeFailures: 0, outOfRange: 0, refused: 2 });
  }, 30_000);

  it('a counter out of range is counted, and the limits step aside instead of asking Redis again at every send', async () => {
    const e = await client({ perRecipient: { perHour: 2 }, onStoreFailure: 'refuse' });
    await expect(e.send('13600000031')).resolves.toMatchObject({ code: 'OK' });
    await admin.persist(await e.counter('perHour', '13600000031')); // no expiry
    for (let tries = 0; tries < 3; tries++) {
      const refused = (await e.refusal('13600000031')) as { retryAfterMs: number };
      expect(refused).toMatchObject({ code: 'LIMITS_UNAVAILABLE', outcome: 'not_sent' });
      expect(refused.retryAfterMs).toBeLessThanOrEqual(1_000);
    }
    // The two sends after the first did not run the script again.
    expect(e.sms.stats().fleet?.redisSkipped).toBe(2);
    expect(e.sms.stats().limits).toMatchObject({ outOfRange: 1, storeFailures: 3, refusedUnavailable: 3 });
    expect(e.lines.filter((line) => line.includes('LIMIT_OUT_OF_RANGE'))).toHaveLength(1);
    expect(sentTo('13600000031')).toBe(1);
  }, 30_000);

  it('a long outage never forgets a send Redis has not recorded: with no room left, new sends are refused', async () => {
    const f = await client({ perRecipient: { perHour: 2 } });
    f.redis.disconnect(); // every call fails at once (offline queue off)
    const numbers = Array.from({ length: 1_000 }, (_, index) => `1370${String(index).padStart(7, '0')}`);
    for (let start = 0; start < numbers.length; start += 50) {
      const batch = numbers.slice(start, start + 50).map((number) => f.send(number));
      await expect(Promise.all(batch)).resolves.toHaveLength(batch.length);
    }
    expect(f.sms.stats().limits).toMatchObject({ allowedLocally: 1_000, pending: 1_000 });
    // Refusals in between (each may queue a refund) push no send out.
    for (let tries = 0; tries < 5; tries++) {
      await expect(f.refusal(numbers[tries] as string)).resolves.toMatchObject({ code: 'LIMITS_UNAVAILABLE' });
    }
    await expect(f.refusal('13800000000')).resolves.toMatchObject({ code: 'LIMITS_UNAVAILABLE', outcome: 'not_sent' });
    await expect(f.refusal(numbers[0] as string)).resolves.toMatchObject({ code: 'LIMITS_UNAVAILABLE' });
    expect(sentTo(numbers[0] as string)).toBe(1);
    expect(sentTo('13800000000')).toBe(0);
    expect(f.sms.stats().limits?.pending).toBe(1_000);
    // Redis back: every kept send is written.
    await f.redis.connect();
    await settle(1_100);
    await f.refusal('13800000001');
    for (let waited = 0; waited < 40 && (f.sms.stats().limits?.pending ?? 0) > 0; waited++) {
      await settle(250);
      await f.refusal('13800000002');
    }
    expect(f.sms.stats().limits?.pending).toBe(0);
    expect(await admin.get(await f.counter('perHour', numbers[0] as string))).toBe('1');
    expect(await admin.get(await f.counter('perHour', numbers[999] as string))).toBe('1');
  }, 120_000);
});
