/**
 * Keys of the fleet written by another writer of the shared Redis, as an
 * attacker (a compromised replica, an operator's mistake) would write them
 * (issue 28, findings 1 and 2 and the lock key). What is read back is a
 * hint: a value out of range is a Redis failure (the fleet steps aside, each
 * replica on its own), never a wait; no wait outlasts the call's budget; and
 * a waiting call shows itself.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyTag } from '../../src/fleet/fleet.js';
import type { HashScanClientOptions } from '../../src/hashscan/scan-options.js';
import { HashScanClient } from '../../src/index.js';
import { describeWithRedis } from '../helpers/redis.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import { freshPrefix, hashes } from './fleet-helpers.js';
import { isHit, startLookupService } from './lookup-service.js';

const SECRET = 'the-fleet-test-cache-secret-0123456789';
const YEAR_MS = 365 * 24 * 3_600_000;
const DAY_MS = 24 * 3_600_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const verdictOf = (hash: string) => ({ hash, verdict: isHit(hash) ? 'malicious' : 'not_detected' });

describeWithRedis('keys of the fleet forged by another writer of the shared Redis', (redisUrl) => {
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  /** The application's Redis client and the attacker's own connection to the same Redis. */
  async function connect(url = redisUrl) {
    const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true });
    redis.on('error', () => {});
    await redis.connect();
    const attacker = new Redis(url);
    attacker.on('error', () => {});
    closers.push(async () => {
      redis.disconnect();
      attacker.disconnect();
    });
    return { redis, attacker };
  }

  async function fleetClient(redis: Redis, options: Partial<HashScanClientOptions> & { lookupWaitMs?: number } = {}) {
    const service = await startLookupService(2);
    closers.push(() => service.close());
    const lines: string[] = [];
    const push = (line: string) => void lines.push(line);
    const prefix = freshPrefix();
    const { lookupWaitMs, ...rest } = options;
    const client = new HashScanClient({
      apiKey: 'fleet-test-key',
      baseUrl: service.url,
      logger: { debug: () => {}, info: push, warn: push, error: push },
      cache: { secret: SECRET },
      fleet: { redis, prefix, timeoutMs: 1_000, ...(lookupWaitMs !== undefined && { lookupWaitMs }) },
      ...rest,
    });
    const key = (suffix: string) => `${prefix}:hashscan:${keyTag(service.url)}:${suffix}`;
    return { client, service, lines, key };
  }

  describe('the fleet pause', () => {
    it('a pause key with a one-year time to live, or none, is not obeyed: lookups answer, the fleet steps aside', async () => {
      for (const forge of [
        (attacker: Redis, key: string) => attacker.set(key, '1', 'PX', YEAR_MS),
        (attacker: Redis, key: string) => attacker.set(key, '1'),
      ]) {
        const { redis, attacker } = await connect();
        const { client, service, lines, key } = await fleetClient(redis, { totalTimeoutMs: 3_000 });
        await forge(attacker, key('pause'));
        const [first, second] = hashes(2, `forged-pause-${lines.length}-${Math.random()}`) as [string, string];
        // The first lookup sets off the (background) read of the pause; the next one would be held by it.
        await expect(client.scan(first)).resolves.toMatchObject(verdictOf(first));
        await pause(60);
        const started = performance.now();
        await expect(client.scan(second)).resolves.toMatchObject(verdictOf(second));
        expect(performance.now() - started).toBeLessThan(2_500);
        expect(service.arrivals).toHaveLength(2);
        expect(client.stats().fleet).toMatchObject({ held: 0, holding: 0, pausedUntil: undefined });
        expect(client.stats().fleet?.redisOutOfRange).toBeGreaterThanOrEqual(1);
        expect(lines.filter((line) => line.includes('PAUSE_OUT_OF_RANGE'))).toHaveLength(1);
      }
    });

    it('a pause within the cap but past the budget ends calls at once: TIMEOUT with retryAfterMs, one pause line', async () => {
      const { redis, attacker } = await connect();
      const { client, service, lines, key } = await fleetClient(redis);
      await attacker.set(key('pause'), '1', 'PX', 30_000);
      const [first, ...rest] = hashes(4, 'pause-past-budget') as [string, ...string[]];
      // The first lookup sets off the (background) read of the pause, and goes through before it lands.
      await client.scan(first);
      await pause(100);
      const started = performance.now();
      const outcomes = await Promise.all(rest.map((hash) => client.scanOutcome(hash, { totalTimeoutMs: 2_000 })));
      expect(performance.now() - started).toBeLessThan(1_500);
      for (const outcome of outcomes) {
        expect(outcome).toMatchObject({ verdict: 'error', error: { code: 'TIMEOUT', attempts: 0 } });
        expect(outcome.verdict === 'error' && outcome.error.retryAfterMs).toBeGreaterThan(20_000);
      }
      expect(service.arrivals).toHaveLength(1);
      expect(client.stats()).toMatchObject({ waitsRefused: 3 });
      expect(client.stats().fleet?.pausedUntil).toBeGreaterThan(Date.now() + 20_000);
      expect(lines.filter((line) => line.includes("the fleet's pause (read from Redis) holds"))).toHaveLength(1);
    });

    it('while the fleet holds a call, stats().fleet counts it and says when the pause ends', async () => {
      const { redis, attacker } = await connect();
      const { client, key } = await fleetClient(redis);
      const [warm, first] = hashes(2, 'pause-visible') as [string, string];
      await attacker.set(key('pause'), '1', 'PX', 1_500);
      // Sets off the (background) read of the pause, and goes through before it lands.
      await client.scan(warm);
      await pause(60);
      const waiting = client.scan(first);
      await pause(200);
      const during = client.stats().fleet;
      expect(during).toMatchObject({ held: 1, holding: 1 });
      expect(during?.pausedUntil).toBeGreaterThan(Date.now());
      await expect(waiting).resolves.toMatchObject(verdictOf(first));
      expect(client.stats().fleet).toMatchObject({ held: 1, holding: 0 });
    });
  });

  describe('the fleet quota', () => {
    let server: RedisServer;
    beforeAll(async () => {
      // A Redis of its own: its command count is this test's alone.
      server = await startRedisServer();
    });
    afterAll(() => server?.stop());

    async function commandCount(admin: Redis): Promise<number> {
      const stats = await admin.info('stats');
      return Number(/^total_commands_processed:(\d+)/m.exec(stats)?.[1] ?? Number.NaN);
    }

    it('a poisoned counter (a day, then a year to live) neither stalls lookups nor spins', async () => {
      const warnings: string[] = [];
      const onWarning = (warning: Error) => void warnings.push(warning.name);
      process.on('warning', onWarning);
      try {
        for (const ttl of [DAY_MS, YEAR_MS]) {
          const { redis, attacker } = await connect(server.url);
          const { client, service, key } = await fleetClient(redis, { rateLimit: { requestsPerSecond: 10 } });
          await attacker.set(key('quota:attempts'), '1000000', 'PX', ttl);
          const before = await commandCount(attacker);
          const list = hashes(5, `quota-${ttl}`);
          const started = performance.now();
          const outcomes = await Promise.all(list.map((hash) => client.scanOutcome(hash, { totalTimeoutMs: 3_000 })));
          expect(outcomes).toEqual(list.map((hash) => expect.objectContaining(verdictOf(hash))));
          expect(performance.now() - started).toBeLessThan(2_500);
          expect(service.arrivals).toHaveLength(5);
          // Bounded: a handful of commands per lookup, not tens of thousands.
          expect((await commandCount(attacker)) - before).toBeLessThan(100);
          expect(client.stats().fleet?.redisOutOfRange).toBeGreaterThanOrEqual(1);
        }
        expect(warnings).not.toContain('TimeoutOverflowWarning');
      } finally {
        process.off('warning', onWarning);
      }
    });
  });

  describe('the single request per hash', () => {
    it('a lock with a day to live costs no wait, one without expiry is no "owner gone": both ignored, counted', async () => {
      const { redis, attacker } = await connect();
      const { client, service, key } = await fleetClient(redis, { lookupWaitMs: 5_000 });
      const [day, forever] = hashes(2, 'forged-lock') as [string, string];
      await attacker.set(key(`lookup:${day}`), 'attacker', 'PX', DAY_MS);
      await attacker.set(key(`lookup:${forever}`), 'attacker');
      const started = performance.now();
      await expect(client.scan(day)).resolves.toMatchObject(verdictOf(day));
      // Generous against the 5 s wait a day-long lock used to cost.
      expect(performance.now() - started).toBeLessThan(2_500);
      await expect(client.scan(forever)).resolves.toMatchObject(verdictOf(forever));
      expect(service.arrivals).toHaveLength(2);
      expect(client.stats().fleet?.redisOutOfRange).toBeGreaterThanOrEqual(1);
      // A lock in range (as a replica sets it) is waited for, within the caller's budget (a client whose
      // fleet has not stepped aside after the forged locks).
      const other = await fleetClient(redis, { lookupWaitMs: 5_000 });
      const [held] = hashes(1, 'lock-budget') as [string];
      await attacker.set(other.key(`lookup:${held}`), 'another-replica', 'PX', 5_000);
      const waited = performance.now();
      await expect(other.client.scan(held, { totalTimeoutMs: 400 })).rejects.toMatchObject({ code: 'TIMEOUT' });
      expect(performance.now() - waited).toBeLessThan(2_500);
    });
  });
});
