import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { redisFleet } from '../../src/fleet/index.js';
import type { OtpVerifier } from '../../src/otp/otp-verifier.js';
import type { FleetRedisClient } from '../../src/redis/redis-link.js';
import { connectRedis } from '../fleet/connect-redis.js';
import { useMswServer } from '../helpers/msw.js';
import { describeWithRedis } from '../helpers/redis.js';
import { lastCode, manualClock, smsRejection, smsService, verifierOn, wrongCode } from './otp-helpers.js';
import { runPumping } from './pumping-scenario.js';

const server = useMswServer();
const PHONE = '+8613800138000';
const SECRET = 'a shared secret of at least 32 bytes, for tests';

describeWithRedis('OtpVerifier on the fleet Redis: replicas share codes, attempts and the guard', (redisUrl) => {
  let admin: Redis;
  const closers: Array<() => Promise<void>> = [];
  const replicaClients: FleetRedisClient[] = [];
  beforeAll(async () => {
    admin = new Redis(redisUrl);
    for (const lib of ['node-redis', 'ioredis'] as const) {
      const { redis, close } = await connectRedis(lib, redisUrl);
      replicaClients.push(redis);
      closers.push(close);
    }
  });
  afterAll(async () => {
    for (const close of closers) await close();
    admin.disconnect();
  });

  /** Two replicas (a node-redis and an ioredis client) on one fresh prefix, and the double. */
  function replicas(options: { now?: () => number; timeoutMs?: number } = {}) {
    const prefix = `otp-test:${randomUUID()}`;
    const { handlers, sms } = smsService(server);
    const make = (redis: FleetRedisClient): OtpVerifier =>
      verifierOn(sms, {
        secret: SECRET,
        fleet: redisFleet({ redis, prefix, timeoutMs: options.timeoutMs ?? 1_000 }),
        ...(options.now && { now: options.now }),
      });
    return {
      prefix,
      handlers,
      a: make(replicaClients[0] as FleetRedisClient),
      b: make(replicaClients[1] as FleetRedisClient),
    };
  }

  const recordKey = async (prefix: string): Promise<string> => {
    const keys = await admin.keys(`${prefix}:otp:code:*`);
    expect(keys).toHaveLength(1);
    return keys[0] as string;
  };

  it('needs a shared secret', () => {
    const { sms } = smsService(server);
    expect(() => verifierOn(sms, { fleet: redisFleet({ redis: replicaClients[0] as FleetRedisClient }) })).toThrow(
      ConfigurationError,
    );
  });

  it('checks on one replica a code sent by the other, once', async () => {
    const { handlers, a, b } = replicas();
    await a.send({ phoneNumber: '13800138000' });
    const code = lastCode(handlers, PHONE);
    await expect(smsRejection(b.send({ phoneNumber: PHONE }))).resolves.toMatchObject({ code: 'RESEND_COOLDOWN' });
    await expect(b.check({ phoneNumber: '+86 138 0013 8000', code })).resolves.toEqual({ valid: true });
    await expect(a.check({ phoneNumber: PHONE, code })).resolves.toEqual({ valid: false, reason: 'not_found' });
  });

  it('counts attempts across replicas atomically: 10 wrong guesses at once get 5 answers, and one of two right ones wins', async () => {
    const { handlers, a, b } = replicas();
    await a.send({ phoneNumber: PHONE });
    const code = lastCode(handlers, PHONE);
    const guesses = Array.from({ length: 10 }, (_, i) =>
      (i % 2 === 0 ? a : b).check({ phoneNumber: PHONE, code: wrongCode(code) }),
    );
    const reasons = (await Promise.all(guesses)).map((r) => (r.valid ? 'valid' : r.reason)).sort();
    expect(reasons).toEqual([...Array(5).fill('mismatch'), ...Array(5).fill('too_many_attempts')]);
    await expect(b.check({ phoneNumber: PHONE, code })).resolves.toMatchObject({ reason: 'too_many_attempts' });

    const again = replicas();
    await again.a.send({ phoneNumber: PHONE });
    const right = lastCode(again.handlers, PHONE);
    const both = await Promise.all([
      again.a.check({ phoneNumber: PHONE, code: right }),
      again.b.check({ phoneNumber: PHONE, code: right }),
    ]);
    expect(both.filter((r) => r.valid)).toHaveLength(1);
    expect(both.filter((r) => !r.valid)).toEqual([{ valid: false, reason: 'not_found' }]);
  });

  it('stores neither the code nor the phone: a dump of the prefix holds hashes only', async () => {
    const { prefix, handlers, a } = replicas();
    await a.send({ phoneNumber: PHONE });
    const code = lastCode(handlers, PHONE);
    const key = await recordKey(prefix);
    const dump = JSON.stringify({ key, fields: await admin.hgetall(key) });
    expect(dump).not.toContain(code);
    expect(dump).not.toContain('13800138000');
    expect(Object.keys(await admin.hgetall(key)).sort()).toEqual(['a', 'exp', 'h', 'id', 'sent']);
  });

  it.each([
    ['a time to live past its cap', (key: string) => admin.pexpire(key, 86_400_000)],
    ['an attempt count set back', (key: string) => admin.hset(key, 'a', '0')],
    ['a validity past ttlMs', (key: string) => admin.hincrby(key, 'exp', 86_400_000)],
    ['a malformed hash', (key: string) => admin.hset(key, 'h', 'not-a-hash')],
    ['a value of another type', (key: string) => admin.multi().del(key).set(key, 'x', 'PX', 60_000).exec()],
  ])('a forged record (%s) reads as not_found, never valid', async (_, forge) => {
    const { prefix, handlers, a } = replicas();
    await a.send({ phoneNumber: PHONE });
    const code = lastCode(handlers, PHONE);
    await expect(a.check({ phoneNumber: PHONE, code: wrongCode(code) })).resolves.toMatchObject({ reason: 'mismatch' });
    await forge(await recordKey(prefix));
    await expect(a.check({ phoneNumber: PHONE, code })).resolves.toEqual({ valid: false, reason: 'not_found' });
  });

  it('refuses to send while Redis cannot store the code (VERIFICATION_UNAVAILABLE, nothing sent)', async () => {
    // Never connected, offline queue off: every command fails at once, as during an outage.
    const down = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    down.on('error', () => {});
    closers.push(async () => down.disconnect());
    const { handlers, sms } = smsService(server);
    const lines: Array<{ level: string; message: string; fields: unknown }> = [];
    const log = (level: string) => (message: string, fields?: unknown) => lines.push({ level, message, fields });
    const logger = { structured: true, debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
    const prefix = `otp-test:${randomUUID()}`;
    const offline = verifierOn(sms, { secret: SECRET, logger, fleet: redisFleet({ redis: down, prefix }) });
    // Three failures within a second, all of the calls: the link steps aside (store/bounded-calls.ts).
    for (let send = 0; send < 3; send++) {
      await expect(smsRejection(offline.send({ phoneNumber: PHONE }))).resolves.toMatchObject({
        code: 'VERIFICATION_UNAVAILABLE',
        outcome: 'not_sent',
        retryAfterMs: 1_000,
      });
    }
    await expect(smsRejection(offline.check({ phoneNumber: PHONE, code: '123456' }))).resolves.toMatchObject({
      code: 'VERIFICATION_UNAVAILABLE',
    });
    expect(handlers.requests).toHaveLength(0);
    // One line for the outage (the check was skipped while the link steps aside), naming the feature, no phone.
    const warned = lines.filter((line) => line.level === 'warn' && line.message.includes("the fleet's Redis failed"));
    expect(warned).toHaveLength(1);
    expect(warned[0]?.message).toContain('verification codes are neither sent nor checked');
    expect(warned[0]?.fields).toMatchObject({ use: 'verification', reason: 'FLEET_UNAVAILABLE' });
    expect(JSON.stringify(lines)).not.toContain('13800138000');
  });

  it('shares the pumping guard: the burst over two replicas delivers at most 50, the 50 users all verify', async () => {
    const clock = manualClock();
    const { handlers, a, b } = replicas({ now: clock.now });
    const tally = await runPumping([a, b], handlers, clock.advance);
    expect(tally.burstDelivered).toBeLessThanOrEqual(50);
    expect(tally.usersVerified).toBe(50);
  });

  it('does not obey a forged suspension past suspendMs (the replica guards on its own meanwhile)', async () => {
    const { prefix, handlers, a } = replicas();
    await admin.set(`${prefix}:otp:guard:8613800:suspended`, '1', 'PX', 365 * 86_400_000);
    await a.send({ phoneNumber: PHONE });
    expect(handlers.messages).toHaveLength(1);
  });
});
