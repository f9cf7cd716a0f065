import { randomUUID } from 'node:crypto';
import KeyvRedis from '@keyv/redis';
import Keyv from 'keyv';
import { afterAll, expect, it } from 'vitest';
import { sharedCacheKey } from '../../../src/hashscan/cache/verdict-cache.js';
import type { HashScanClientOptions } from '../../../src/hashscan/hashscan-client.js';
import { BASE_URL, HIT, json, makeClient, NOT_DETECTED, SHA1, SHA256, serveLookup } from '../../helpers/hash-lookup.js';
import { useMswServer } from '../../helpers/msw.js';
import { describeWithRedis } from '../../helpers/redis.js';
import { hasRedisServer, type RedisServer, startRedisServer } from '../../helpers/redis-server.js';

const server = useMswServer();
const SECRET = 'the-fleet-wide-cache-secret-0123456789';

/** Closes a Keyv connection, without waiting forever on a Redis that is gone. */
async function close(kv: Keyv): Promise<void> {
  await Promise.race([kv.disconnect().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1_000))]);
}

describeWithRedis('shared cache on a real Redis', (url) => {
  const opened: Keyv[] = [];
  afterAll(async () => {
    await Promise.all(opened.map(close));
  });

  /** One replica's own connection to Redis, in a namespace of this test. */
  function connect(namespace: string, redis = url): { kv: Keyv; store: KeyvRedis<string> } {
    const store = new KeyvRedis<string>(redis);
    const kv = new Keyv<string>({ store, namespace });
    // A Keyv without an error listener would throw its connection errors at the process.
    kv.on('error', () => {});
    store.on('error', () => {});
    opened.push(kv);
    return { kv, store };
  }

  /** A generous store bound: sharing is the subject here, not timing (a cold connection on a loaded machine is slow). */
  function replica(kv: Keyv, options: HashScanClientOptions = {}) {
    return makeClient({
      cache: { store: kv, secret: SECRET, storeTimeoutMs: 5_000, ...(options.cache || {}) },
      ...options,
    });
  }

  it('two replicas sharing one Redis make one request for a hash between them, aliases included', async () => {
    const requests = serveLookup(server, (hash) => (hash === SHA256 ? json(HIT) : json(NOT_DETECTED)));
    const namespace = randomUUID();
    const [a, b] = [replica(connect(namespace).kv), replica(connect(namespace).kv)];
    await expect(a.scan(SHA256)).resolves.toMatchObject({ verdict: 'malicious' });
    await expect(b.scan(SHA256)).resolves.toMatchObject({ verdict: 'malicious', source: 'engine-x' });
    await expect(b.scan(SHA1)).resolves.toMatchObject({ verdict: 'malicious', hash: SHA1 });
    const clean = '0'.repeat(64);
    await expect(b.scan(clean)).resolves.toMatchObject({ verdict: 'not_detected' });
    await expect(a.scan(clean)).resolves.toMatchObject({ verdict: 'not_detected' });
    expect(requests.map((request) => request.hash)).toEqual([SHA256, clean]);
    expect(b.stats().cache.sharedHits).toBe(1); // SHA1 came with SHA256's entry into b's memory
    expect(a.stats().cache.sharedHits).toBe(1);
  });

  it('entries expire in Redis with the verdict lifetimes', async () => {
    const requests = serveLookup(server, (hash) =>
      hash === SHA256 ? json({ ...HIT, data: undefined }) : json(NOT_DETECTED),
    );
    const namespace = randomUUID();
    const { kv, store } = connect(namespace);
    const clean = 'a'.repeat(64);
    const lifetimes = {
      cache: { store: kv, secret: SECRET, ttlMs: 60_000, notDetectedTtlMs: 400, storeTimeoutMs: 5_000 },
    };
    await replica(kv, lifetimes).scan(SHA256);
    await replica(kv, lifetimes).scan(clean);

    const redis = await store.getClient();
    const keys = (await redis.keys(`${namespace}::*`)).sort();
    expect(keys).toHaveLength(2);
    const ttls = new Map(await Promise.all(keys.map(async (key) => [key, await redis.pTTL(key)] as const)));
    const ttlOf = (hash: string) => [...ttls].find(([key]) => key.endsWith(sharedCacheKey(BASE_URL, hash)))?.[1];
    expect(ttlOf(SHA256)).toBeGreaterThan(50_000);
    expect(ttlOf(SHA256)).toBeLessThanOrEqual(60_000);
    expect(ttlOf(clean)).toBeGreaterThan(0);
    expect(ttlOf(clean)).toBeLessThanOrEqual(400);

    // Redis itself drops the entry (not only the sealed expiry): poll for it, with a generous bound.
    const deadline = Date.now() + 10_000;
    while ((await redis.exists(keys.find((key) => key.endsWith(clean)) ?? '')) === 1 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const fresh = replica(connect(namespace).kv, lifetimes);
    await fresh.scan(clean);
    await fresh.scan(SHA256);
    expect(requests.map((request) => request.hash)).toEqual([SHA256, clean, clean]);
  });

  it('a tampered entry (valid shape, wrong MAC) is ignored and the service is asked', async () => {
    const requests = serveLookup(server, () => json(HIT));
    const namespace = randomUUID();
    const { kv } = connect(namespace);
    await replica(kv).scan(SHA256);
    const key = sharedCacheKey(BASE_URL, SHA256);
    const stored = await kv.get(key);
    expect(stored).toMatch(/^hs1\.[\w-]{43}\./);
    // Someone with write access to Redis but not the secret turns the hit into a non-detection.
    const [, mac, payload] = /^(hs1\.[\w-]{43})\.(.*)$/s.exec(stored as string) ?? [];
    const fields = JSON.parse(payload as string) as unknown[];
    const forged = JSON.stringify([
      fields[0],
      fields[1],
      fields[2],
      'not_detected',
      fields[4],
      JSON.stringify(NOT_DETECTED),
    ]);
    await kv.set(key, `${mac}.${forged}`, 60_000);

    const victim = replica(connect(namespace).kv);
    await expect(victim.scan(SHA256)).resolves.toMatchObject({ verdict: 'malicious' });
    expect(requests).toHaveLength(2);
    expect(victim.stats().cache).toMatchObject({ sharedRejected: 1, sharedHits: 0 });
  });

  it.skipIf(!hasRedisServer())(
    'Redis stopped mid-run: lookups still answer from the service, with bounded added latency',
    async () => {
      const requests = serveLookup(server, () => json(NOT_DETECTED));
      const own: RedisServer = await startRedisServer();
      try {
        const { kv } = connect(randomUUID(), own.url);
        const client = replica(kv, { cache: { store: kv, secret: SECRET, storeTimeoutMs: 50 } });
        await client.scan('1'.repeat(64));
        await own.stop();
        const hashes = Array.from({ length: 20 }, (_, index) => index.toString(16).padStart(64, 'b'));
        const started = performance.now();
        for (const hash of hashes) await expect(client.scan(hash)).resolves.toMatchObject({ verdict: 'not_detected' });
        const perLookup = (performance.now() - started) / hashes.length;
        // Generous (the machine is shared): the store bound is 50 ms, and after a failure the store is skipped.
        expect(perLookup).toBeLessThan(1_000);
        expect(requests).toHaveLength(21);
        expect(client.stats().cache.storeErrors).toBeGreaterThan(0);
      } finally {
        await own.stop();
      }
    },
  );
});
