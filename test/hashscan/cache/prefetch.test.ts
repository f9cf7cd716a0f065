/**
 * `scanIterable` over an array with the fleet's Redis as the shared store
 * (issue 34): each window of hashes is read with one `MGET` and its misses
 * claimed with one script, instead of a `GET` and a `SET NX PX` per hash.
 * What the `MGET` brings back gets every check a `GET`'s reply gets, and a
 * hash another replica holds the claim of is still waited for, not asked.
 */
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { keyTag } from '../../../src/fleet/fleet.js';
import { redisFleet } from '../../../src/fleet/redis-fleet.js';
import { sharedCacheKey } from '../../../src/hashscan/cache/verdict-cache.js';
import type { HashScanClient } from '../../../src/hashscan/hashscan-client.js';
import { hashes } from '../../fleet/fleet-helpers.js';
import { BASE_URL, HIT, json, makeClient, NOT_DETECTED, SHA256, serveLookup } from '../../helpers/hash-lookup.js';
import { useMswServer } from '../../helpers/msw.js';
import { describeWithRedis } from '../../helpers/redis.js';

const server = useMswServer();

describeWithRedis('scanIterable over an array, with the fleet on a real Redis', (url) => {
  const clients: Redis[] = [];
  afterAll(() => {
    for (const redis of clients) redis.disconnect();
  });

  /** Which of the fleet's scripts an `EVAL` runs. */
  const scriptOf = (script = ''): string =>
    script.includes("'NX'") ? 'EVAL claim' : script.includes("'SET', k, v") ? 'EVAL set' : 'EVAL release';

  /** An ioredis client as the docs ask for a fleet, recording the name (and NX flag) of every command it sends. */
  async function connect(): Promise<{ redis: Redis; sent: string[] }> {
    const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
    redis.on('error', () => {});
    await redis.connect();
    clients.push(redis);
    const sent: string[] = [];
    const call = redis.call.bind(redis) as (...args: string[]) => Promise<unknown>;
    Object.assign(redis, {
      call: (...args: string[]) => {
        const [command = '', ...rest] = args;
        sent.push(
          command === 'SET' && rest.includes('NX') ? 'SET NX' : command === 'EVAL' ? scriptOf(rest[0]) : command,
        );
        return call(...args);
      },
    });
    return { redis, sent };
  }

  /**
   * A client whose fleet is `redis` under `prefix`, with generous bounds: timing is not the subject (a
   * window's claims are used while half of `lookupWaitMs` is left, however slow a loaded machine is).
   */
  function replica(redis: Redis, prefix: string): HashScanClient {
    return makeClient({
      cache: { storeTimeoutMs: 5_000 },
      fleet: redisFleet({ redis, prefix, timeoutMs: 5_000, lookupWaitMs: 60_000 }),
    });
  }

  const cacheKey = (prefix: string, hash: string): string =>
    `${prefix}:hashscan:${keyTag(BASE_URL)}:cache:${sharedCacheKey(BASE_URL, hash)}`;
  const lockKey = (prefix: string, hash: string): string => `${prefix}:hashscan:${keyTag(BASE_URL)}:lookup:${hash}`;

  const count = (sent: readonly string[], command: string): number => sent.filter((each) => each === command).length;

  async function scanAll(client: HashScanClient, list: readonly string[]) {
    const outcomes = [];
    for await (const outcome of client.scanIterable(list, { concurrency: 16 })) outcomes.push(outcome);
    return outcomes.sort((a, b) => a.index - b.index);
  }

  it('300 new hashes: two MGETs and two claim scripts, no GET, SET NX or SET of a hash of its own', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const asked = (): string[] => requests.map((request) => request.hash ?? '');
    const { redis, sent } = await connect();
    const prefix = `prefetch-test:${crypto.randomUUID()}`;
    const list = hashes(300, prefix);
    const outcomes = await scanAll(replica(redis, prefix), list);
    expect(outcomes.map((outcome) => [outcome.hash, outcome.verdict])).toEqual(
      list.map((hash) => [hash, 'not_detected']),
    );
    expect(asked().sort()).toEqual([...list].sort());
    expect(count(sent, 'MGET')).toBe(2); // windows of 256 and 44
    expect(count(sent, 'GET')).toBe(0);
    expect(count(sent, 'SET NX')).toBe(0);
    expect(count(sent, 'EVAL claim')).toBe(2);
    // The releases and the entries' writes: several in one script as they end together (timing decides how many).
    for (const script of ['EVAL release', 'EVAL set']) {
      expect(count(sent, script)).toBeGreaterThanOrEqual(1);
      expect(count(sent, script)).toBeLessThanOrEqual(300);
    }
    expect(count(sent, 'SET')).toBe(0);
    // Every entry reached Redis, every claim was let go.
    expect(await redis.exists(...list.map((hash) => cacheKey(prefix, hash)))).toBe(300);
    expect(await redis.exists(...list.map((hash) => lockKey(prefix, hash)))).toBe(0);
  });

  it("what the MGET reads is checked as a GET's reply is: a valid entry is a hit, a forged one is refused and asked", async () => {
    const requests = serveLookup(server, (hash) => json(hash === SHA256 ? HIT : NOT_DETECTED));
    const asked = (): string[] => requests.map((request) => request.hash ?? '');
    const prefix = `prefetch-test:${crypto.randomUUID()}`;
    const other = await connect();
    const [clean, forgedClean] = hashes(2, prefix) as [string, string];
    // Another replica answered SHA256 (a hit) and `clean`.
    await replica(other.redis, prefix).scan(SHA256);
    await replica(other.redis, prefix).scan(clean);
    // Someone with write access to Redis copies the clean entry under the hit's key, and under another hash's.
    const cleanEntry = (await other.redis.get(cacheKey(prefix, clean))) as string;
    await other.redis.set(cacheKey(prefix, SHA256), cleanEntry, 'PX', 60_000);
    await other.redis.set(cacheKey(prefix, forgedClean), cleanEntry, 'PX', 60_000);
    requests.length = 0;

    const { redis, sent } = await connect();
    const client = replica(redis, prefix);
    const outcomes = await scanAll(client, [SHA256, clean, forgedClean]);
    expect(outcomes.map((outcome) => outcome.verdict)).toEqual(['malicious', 'not_detected', 'not_detected']);
    // The forged entries are refused (bound to another hash) and their hashes asked; the valid one is a hit.
    expect(asked().sort()).toEqual([SHA256, forgedClean].sort());
    expect(client.stats().cache).toMatchObject({ sharedHits: 1, sharedRejected: 2, misses: 2 });
    expect(count(sent, 'MGET')).toBe(1);
    expect(count(sent, 'GET')).toBe(0);
  });

  it('a hash whose claim another replica holds is waited for and joined, not asked', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const asked = (): string[] => requests.map((request) => request.hash ?? '');
    const prefix = `prefetch-test:${crypto.randomUUID()}`;
    const [held, free] = hashes(2, prefix) as [string, string];
    const { redis } = await connect();
    // Another replica holds `held`'s claim, and answers it a moment later (its entry, made here under another prefix).
    await redis.set(lockKey(prefix, held), 'another-replica', 'PX', 4_000);
    const elsewhere = `prefetch-test:${crypto.randomUUID()}`;
    await replica(redis, elsewhere).scan(held);
    const entry = (await redis.get(cacheKey(elsewhere, held))) as string;
    requests.length = 0;
    setTimeout(() => {
      void redis
        .set(cacheKey(prefix, held), entry, 'PX', 60_000)
        .then(() => redis.del(lockKey(prefix, held)))
        .catch(() => {});
    }, 200);

    const client = replica(redis, prefix);
    const outcomes = await scanAll(client, [held, free]);
    expect(outcomes.map((outcome) => outcome.verdict)).toEqual(['not_detected', 'not_detected']);
    expect(asked()).toEqual([free]);
    expect(client.stats().fleet).toMatchObject({ lookupsJoined: 1, lookupsOwned: 1 });
  });
});
