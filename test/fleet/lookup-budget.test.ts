/**
 * The client's `totalTimeoutMs` bounds a lookup from its start (issue 28: no
 * wait beyond the caller's budget), not from the request after the fleet's
 * one-request-per-hash wait: the wait and the request share one budget, as
 * a per-call `totalTimeoutMs` already did.
 */
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { keyTag } from '../../src/fleet/fleet.js';
import { HashScanClient } from '../../src/index.js';
import { describeWithRedis } from '../helpers/redis.js';
import { freshPrefix, hashes } from './fleet-helpers.js';
import { startLookupService } from './lookup-service.js';

const SECRET = 'the-fleet-test-cache-secret-0123456789';

describeWithRedis("a lookup's budget covers the fleet's wait", (redisUrl) => {
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  /** A client with only the client-level budget, and a service that never answers `hangs`. */
  async function budgetClient(totalTimeoutMs: number, hangs?: string) {
    const redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true });
    redis.on('error', () => {});
    await redis.connect();
    closers.push(async () => redis.disconnect());
    const service = await startLookupService(2, (hash) => hash === hangs);
    closers.push(() => service.close());
    const prefix = freshPrefix();
    const client = new HashScanClient({
      apiKey: 'fleet-test-key',
      baseUrl: service.url,
      totalTimeoutMs,
      retry: { retries: 0 },
      cache: { secret: SECRET },
      fleet: { redis, prefix, timeoutMs: 1_000, lookupWaitMs: 5_000 },
    });
    // As another replica with the same lookupWaitMs holds the hash's lock.
    const hold = (hash: string, ms: number) =>
      redis.set(`${prefix}:hashscan:${keyTag(service.url)}:lookup:${hash}`, 'another-replica', 'PX', ms);
    return { client, service, hold };
  }

  it("the client's totalTimeoutMs ends the wait for another replica's lookup", async () => {
    const { client, service, hold } = await budgetClient(600);
    const [hash] = hashes(1, 'client-budget-wait') as [string];
    await hold(hash, 5_000);
    const started = performance.now();
    await expect(client.scan(hash)).rejects.toMatchObject({ code: 'TIMEOUT' });
    // Generous against a loaded machine; the 5 s wait it used to cost is far past it.
    expect(performance.now() - started).toBeLessThan(600 + 1_000);
    expect(service.arrivals).toHaveLength(0);
  }, 15_000);

  it('the request after the wait gets only what is left of the budget', async () => {
    const [hash] = hashes(1, 'client-budget-ask') as [string];
    const { client, service, hold } = await budgetClient(2_000, hash);
    // The lock goes away before the budget ends: the replica asks, and the service never answers.
    await hold(hash, 1_500);
    const started = performance.now();
    await expect(client.scan(hash)).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(performance.now() - started).toBeLessThan(2_000 + 1_000);
    expect(service.arrivals).toHaveLength(1);
  }, 15_000);
});
