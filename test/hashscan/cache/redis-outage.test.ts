import { randomUUID } from 'node:crypto';
import KeyvRedis from '@keyv/redis';
import { Redis } from 'ioredis';
import Keyv from 'keyv';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogFields } from '../../../src/observe/logger.js';
import type { SharedStore } from '../../../src/store/shared-store.js';
import { startDelayProxy } from '../../helpers/delay-proxy.js';
import { json, makeClient, NOT_DETECTED, serveLookup } from '../../helpers/hash-lookup.js';
import { useMswServer } from '../../helpers/msw.js';
import { redisActivity } from '../../helpers/redis-activity.js';
import { hasRedisServer, type RedisServer, startRedisServer } from '../../helpers/redis-server.js';

const server = useMswServer();
const SECRET = 'the-fleet-wide-cache-secret-0123456789';

/** What a test opened, closed after it whatever happens. */
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

/** A store that counts the calls it passes on. */
function counting(store: SharedStore): { store: SharedStore; calls: () => number } {
  let calls = 0;
  return {
    calls: () => calls,
    store: {
      get: (key) => {
        calls += 1;
        return store.get(key);
      },
      set: (key, value, ttl) => {
        calls += 1;
        return store.set(key, value, ttl);
      },
      delete: (key) => store.delete(key),
    },
  };
}

/** A connection to Redis as a `SharedStore`, and whether it is connected now. */
interface Connection {
  readonly store: SharedStore;
  readonly ready: () => boolean;
}

/** Keyv over node-redis, as the README shows it: no offline queue, errors thrown to the client's back-off. */
function keyvNodeRedis(url: string, offlineQueue = false): Connection {
  const redis = new KeyvRedis<string>({ url, disableOfflineQueue: !offlineQueue }, { throwOnErrors: true });
  redis.on('error', () => {});
  const kv = new Keyv<string>({ store: redis, namespace: randomUUID(), throwOnErrors: true });
  kv.on('error', () => {});
  cleanups.push(() => Promise.race([kv.disconnect(), new Promise((resolve) => setTimeout(resolve, 1_000))]));
  return { store: kv, ready: () => (redis.client as { isReady?: boolean }).isReady === true };
}

/** ioredis, as the README shows it: `enableOfflineQueue: false`, a three-method adapter. */
function ioredis(url: string): Connection {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on('error', () => {});
  cleanups.push(async () => redis.disconnect());
  return {
    store: {
      get: (key) => redis.get(key),
      set: (key, value, ttl) => (ttl === undefined ? redis.set(key, value) : redis.set(key, value, 'PX', ttl)),
      delete: (key) => redis.del(key),
    },
    ready: () => redis.status === 'ready',
  };
}

/** Waits until `connection` is connected (with the offline queue off, commands before that fail). */
async function connected(connection: Connection): Promise<void> {
  await connection.store.get('warm-up').catch(() => {});
  const started = performance.now();
  while (!connection.ready()) {
    expect(performance.now() - started).toBeLessThan(15_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits until `connection` has noticed that Redis is gone (commands then go to the offline path). */
async function disconnected(connection: Connection): Promise<void> {
  const started = performance.now();
  while (connection.ready()) {
    expect(performance.now() - started).toBeLessThan(15_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const hashes = (count: number, fill: string): string[] =>
  Array.from({ length: count }, (_, i) => `${fill}${i.toString(16)}`.padEnd(64, fill));

/** Looks up `all` from `concurrency` independent callers; every answer must be the service's. */
async function lookUp(client: ReturnType<typeof makeClient>, all: string[], concurrency: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < all.length) {
        await expect(client.scan(all[next++] as string)).resolves.toMatchObject({ verdict: 'not_detected' });
      }
    }),
  );
}

/** A client whose store calls are counted, noting how many had been made when the back-off engaged. */
function clientOn(connection: Connection, storeTimeoutMs = 50) {
  const counted = counting(connection.store);
  const seen = { callsWhenBenched: -1, lines: [] as string[] };
  const log = (message: string, fields?: LogFields): void => {
    seen.lines.push(message);
    if (fields?.state === 'skipping' && seen.callsWhenBenched < 0) seen.callsWhenBenched = counted.calls();
  };
  const client = makeClient({
    logger: { structured: true, debug: () => {}, info: log, warn: log, error: log },
    cache: { store: counted.store, secret: SECRET, storeTimeoutMs },
  });
  return { client, calls: counted.calls, seen };
}

describe.skipIf(!hasRedisServer())('the shared store when Redis fails (a real redis-server)', () => {
  it('Redis 200 ms slow: the store is benched after the first burst, at most one store call per lookup', async () => {
    serveLookup(server, () => json(NOT_DETECTED));
    const redis: RedisServer = await startRedisServer();
    cleanups.push(() => redis.stop());
    const proxy = await startDelayProxy(redis.port, 200);
    cleanups.push(() => proxy.close());
    const connection = keyvNodeRedis(`redis://127.0.0.1:${proxy.port}`);
    await connected(connection);
    const { client, calls, seen } = clientOn(connection);
    const lookups = hashes(400, 'a');
    await lookUp(client, lookups, 16);
    const stats = client.stats().cache;
    expect(stats).toMatchObject({ storeSkipping: true, storeBackoffs: 1 });
    expect(stats.storeSkipped).toBeGreaterThan(0);
    expect(seen.callsWhenBenched).toBeGreaterThan(0);
    expect(calls()).toBeLessThanOrEqual(lookups.length);
  });

  it.each([
    ['Keyv + node-redis, disableOfflineQueue', (url: string) => keyvNodeRedis(url)],
    ['ioredis, enableOfflineQueue: false', ioredis],
  ])(
    'Redis down, then back (%s): benched, nothing replayed, used again within seconds',
    async (_name, connect) => {
      serveLookup(server, () => json(NOT_DETECTED));
      let redis: RedisServer = await startRedisServer();
      cleanups.push(() => redis.stop());
      const connection = connect(redis.url);
      await connected(connection);
      // The subject is the back-off, not the time-out: a roomier one keeps a loaded machine's slow
      // answers from reading as failures (a probe that times out waits up to five seconds for the next).
      const { client, calls, seen } = clientOn(connection, 250);
      await lookUp(client, hashes(16, '1'), 16); // connected and in use
      expect((await redisActivity(redis.url)).keys).toBeGreaterThan(0);

      await redis.stop();
      await disconnected(connection);
      const during = hashes(400, 'b');
      const callsBefore = calls();
      await lookUp(client, during, 16);
      expect(client.stats().cache).toMatchObject({ storeSkipping: true, storeBackoffs: 1 });
      // Once benched, the store sees at most one call per lookup (a probe every few seconds at most).
      const afterBench = calls() - seen.callsWhenBenched;
      expect(seen.callsWhenBenched).toBeGreaterThanOrEqual(callsBefore);
      expect(afterBench).toBeLessThanOrEqual(during.length);

      redis = await startRedisServer(redis.port);
      const back = performance.now();
      await connected(connection);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The commands of the lookups made while it was down were dropped, not queued and replayed now.
      expect(await redisActivity(redis.url)).toEqual({ keys: 0, gets: 0, sets: 0 });

      let round = 0;
      while (client.stats().cache.storeSkipping || (await redisActivity(redis.url)).keys === 0) {
        // Generous (the machine is shared): the design bound is the 5 s back-off cap plus a reconnect.
        expect(performance.now() - back).toBeLessThan(30_000);
        // New hashes each round: ones already answered come from memory and never reach (or probe) the store.
        const fresh = Array.from({ length: 4 }, (_, i) => `${(round++).toString(16)}f${i}`.padEnd(64, 'd'));
        await lookUp(client, fresh, 4);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(seen.lines.some((line) => line.includes('answers again'))).toBe(true);
    },
    45_000,
  );

  it("contrast: node-redis' default offline queue replays the commands of the outage on return", async () => {
    serveLookup(server, () => json(NOT_DETECTED));
    let redis: RedisServer = await startRedisServer();
    cleanups.push(() => redis.stop());
    const connection = keyvNodeRedis(redis.url, true);
    await connected(connection);
    const { client } = clientOn(connection);
    await lookUp(client, hashes(4, '1'), 4);
    await redis.stop();
    await disconnected(connection);
    await lookUp(client, hashes(50, 'c'), 16);
    redis = await startRedisServer(redis.port);
    const back = performance.now();
    while (!connection.ready() && performance.now() - back < 15_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The replay follows the reconnect by a moment that a loaded machine stretches: poll for it.
    let replayed = await redisActivity(redis.url);
    while (replayed.gets + replayed.sets === 0 && performance.now() - back < 15_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      replayed = await redisActivity(redis.url);
    }
    expect(replayed.gets + replayed.sets).toBeGreaterThan(0);
  }, 30_000);
});
