import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { keyTag } from '../../src/fleet/fleet.js';
import { HashScanClient, SmsClient } from '../../src/index.js';
import type { FleetRedisClient } from '../../src/redis/redis-link.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/start-sandbox.js';
import { describeWithRedis } from '../helpers/redis.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import { claimProcessWarnings } from '../setup/process-guard.js';
import { freshPrefix, hashes } from './fleet-helpers.js';
import { isHit, startLookupService } from './lookup-service.js';

const SECRET = 'the-fleet-test-cache-secret-0123456789';

function recordingLogger() {
  const lines: string[] = [];
  const push = (line: string) => void lines.push(line);
  return { lines, logger: { debug: () => {}, info: push, warn: push, error: push } };
}

describe('fleet option checks', () => {
  it('refuses what is not a node-redis or ioredis client, and a bad prefix', () => {
    expect(() => new HashScanClient({ apiKey: 'k', baseUrl: 'https://h.test', fleet: { redis: {} as never } })).toThrow(
      ConfigurationError,
    );
    const redis = { sendCommand: async () => null, isReady: true, options: { disableOfflineQueue: true } };
    expect(() => new HashScanClient({ apiKey: 'k', baseUrl: 'https://h.test', fleet: { redis, prefix: '' } })).toThrow(
      /fleet\.prefix/,
    );
    expect(
      () =>
        new SmsClient({
          accessKeyId: 'id',
          accessKeySecret: 'secret',
          baseUrl: 'https://s.test',
          fleet: { redis, limits: { perRecipient: { perMinute: 0 } } },
        }),
    ).toThrow(/fleet\.limits\.perRecipient\.perMinute/);
  });

  it('warns once when the Redis client would queue commands while disconnected', async () => {
    const { lines, logger } = recordingLogger();
    const redis = { sendCommand: async () => null, isReady: true, options: {} };
    const client = new HashScanClient({ apiKey: 'k', baseUrl: 'https://h.test', logger, fleet: { redis } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('disableOfflineQueue: true');
    expect(client.toJSON()).toMatchObject({ fleet: { redis: 'node-redis', prefix: 'hashscan-sms', timeoutMs: 50 } });
    expect(JSON.stringify(client.toJSON())).not.toContain('sendCommand');
    // Also a process warning (the default logger would say nothing): test/observe/process-warning.test.ts.
    await new Promise((resolve) => setImmediate(resolve));
    claimProcessWarnings('HASHSCAN_SMS_FLEET_OFFLINE_QUEUE');
  });
});

describeWithRedis('fleet features on a real Redis, in one process', (redisUrl) => {
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  async function nodeRedis(url = redisUrl) {
    const client = createClient({ url, disableOfflineQueue: true, socket: { reconnectStrategy: 50 } });
    client.on('error', () => {});
    await client.connect();
    closers.push(async () => client.destroy());
    return client;
  }

  async function ioredis(url = redisUrl) {
    const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true });
    client.on('error', () => {});
    await client.connect();
    closers.push(async () => client.disconnect());
    return client;
  }

  async function lookupClient(
    redis: FleetRedisClient,
    options: { prefix: string; lookupWaitMs?: number; logger?: object },
  ) {
    const service = await startLookupService(5);
    closers.push(() => service.close());
    const { prefix, lookupWaitMs, logger } = options;
    const client = new HashScanClient({
      apiKey: 'fleet-test-key',
      baseUrl: service.url,
      ...(logger !== undefined && { logger: logger as never }),
      cache: { secret: SECRET },
      fleet: { redis, prefix, timeoutMs: 200, ...(lookupWaitMs !== undefined && { lookupWaitMs }) },
    });
    return { client, service };
  }

  const lockKey = (prefix: string, baseUrl: string, hash: string) =>
    `${prefix}:hashscan:${keyTag(baseUrl)}:lookup:${hash}`;

  it('a lookup held by another replica that never answers is asked for itself once the bounded wait is over', async () => {
    const redis = await ioredis();
    const prefix = freshPrefix();
    const { client, service } = await lookupClient(redis, { prefix, lookupWaitMs: 400 });
    const [hash] = hashes(1, 'held') as [string];
    // As a replica with the same lookupWaitMs sets it (a longer lock is no replica's: see the trust-model tests).
    await redis.set(lockKey(prefix, service.url, hash), 'another-replica', 'PX', 400);
    const started = performance.now();
    await expect(client.scan(hash)).resolves.toMatchObject({ verdict: isHit(hash) ? 'malicious' : 'not_detected' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(380);
    expect(service.arrivals).toHaveLength(1);
    expect(client.stats().fleet).toMatchObject({ lookupWaitsGivenUp: 1, lookupsOwned: 0, lookupsJoined: 0 });
  });

  it('an owner that goes away without an answer (its key gone) lets the waiter ask at once', async () => {
    const redis = await nodeRedis();
    const prefix = freshPrefix();
    const { client, service } = await lookupClient(redis, { prefix, lookupWaitMs: 5_000 });
    const [hash] = hashes(1, 'gone') as [string];
    await redis.set(lockKey(prefix, service.url, hash), 'another-replica', { PX: 100 });
    const started = performance.now();
    await client.scan(hash);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(service.arrivals).toHaveLength(1);
  });

  it('a sealed answer written by the owner is taken without a request; a forged one never is', async () => {
    const redis = await nodeRedis();
    const prefix = freshPrefix();
    // The "owner": a replica that writes sealed answers without taking part in the single request per hash.
    const owner = await lookupClient(redis, { prefix, lookupWaitMs: 0 });
    const waiter = new HashScanClient({
      apiKey: 'fleet-test-key',
      baseUrl: owner.service.url,
      cache: { secret: SECRET, storeTimeoutMs: 1_000 },
      fleet: { redis, prefix, timeoutMs: 200, lookupWaitMs: 5_000 },
    });
    const [hash, forged] = hashes(2, 'sealed') as [string, string];
    await redis.set(lockKey(prefix, owner.service.url, hash), 'owner', { PX: 5_000 });
    const waiting = waiter.scan(hash);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await owner.client.scan(hash);
    await redis.del(lockKey(prefix, owner.service.url, hash));
    await expect(waiting).resolves.toMatchObject({ hash });
    expect(owner.service.arrivals).toHaveLength(1);
    expect(waiter.stats().fleet?.lookupsJoined).toBe(1);

    // Someone with write access to Redis plants an unsealed "clean" entry: ignored, the service is asked.
    const keys = await redis.keys(`${prefix}:hashscan:*:cache:*`);
    expect(keys.length).toBeGreaterThan(0);
    await redis.set((keys[0] as string).replace(hash, forged), '{"verdict":"not_detected"}', { PX: 60_000 });
    await waiter.scan(forged);
    expect(owner.service.arrivals.map((arrival) => arrival.hash)).toContain(forged);
  });

  describe('Redis down or slow', () => {
    let server: RedisServer;
    let sandbox: Sandbox;
    afterAll(async () => {
      await server?.stop();
      await sandbox?.close();
    });

    it('lookups and sends go on within the bounded delay, limits per replica meanwhile, logged once', async () => {
      server = await startRedisServer();
      sandbox = await startSandbox();
      const redis = await nodeRedis(server.url);
      const admin = await ioredis(server.url);
      const prefix = freshPrefix();
      const { lines, logger } = recordingLogger();
      const { client, service } = await lookupClient(redis, { prefix, logger });
      const sms = new SmsClient({
        accessKeyId: sandbox.accessKeyId,
        accessKeySecret: sandbox.accessKeySecret,
        baseUrl: sandbox.smsUrl,
        fleet: { redis, prefix, timeoutMs: 100, limits: { perRecipient: { perMinute: 1 } } },
      });
      const send = (phoneNumbers: string) =>
        sms.send({
          phoneNumbers,
          templateCode: 'SMS_100000001',
          signName: 'Sandbox',
          templateParam: { code: '123456' },
        });

      // Slow: every client paused for 3 s; lookups do not wait for it.
      await admin.call('CLIENT', 'PAUSE', '3000', 'ALL');
      const list = hashes(20, 'slow');
      const started = performance.now();
      const outcomes = await client.scanMany(list, { concurrency: 4 });
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(outcomes.map((outcome) => outcome.verdict)).not.toContain('error');
      expect(lines.filter((line) => line.includes("the fleet's Redis failed"))).toHaveLength(1);
      expect(client.stats().fleet?.redisErrors).toBeGreaterThan(0);

      // Down: this replica sends at most one message per number that Redis has not recorded.
      await server.stop();
      await expect(send('13700000001')).resolves.toMatchObject({ code: 'OK' });
      await expect(send('13700000001')).rejects.toMatchObject({ code: 'LIMITS_UNAVAILABLE', outcome: 'not_sent' });
      expect(sandbox.messages).toHaveLength(1);
      expect(service.arrivals.length).toBe(20);
    }, 20_000);
  });

  it('a send the service refused gives its share of the limits back', async () => {
    const redis = await nodeRedis();
    const sandbox = await startSandbox();
    closers.push(() => sandbox.close());
    const sms = new SmsClient({
      accessKeyId: sandbox.accessKeyId,
      accessKeySecret: sandbox.accessKeySecret,
      baseUrl: sandbox.smsUrl,
      fleet: { redis, prefix: freshPrefix(), limits: { perRecipient: { perMinute: 1 }, dailyBudget: 10 } },
    });
    const request = { phoneNumbers: '13600000001', signName: 'Sandbox', templateParam: { code: '123456' } };
    await expect(sms.send({ ...request, templateCode: 'SMS_999' })).rejects.toMatchObject({ outcome: 'rejected' });
    await expect(sms.send({ ...request, templateCode: 'SMS_100000001' })).resolves.toMatchObject({ code: 'OK' });
    await expect(sms.send({ ...request, templateCode: 'SMS_100000001' })).rejects.toMatchObject({
      code: 'SEND_LIMITED',
      category: 'rate_limit',
    });
    expect(sms.stats().fleet?.sendsLimited).toBe(1);
    expect(sandbox.messages).toHaveLength(1);
  });
});

describeWithRedis('every supported Redis client: node-redis 5 and 6, ioredis 5 and 6', (redisUrl) => {
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  const clients: Record<string, () => Promise<FleetRedisClient>> = {
    'node-redis 6': async () => {
      const client = createClient({ url: redisUrl, disableOfflineQueue: true });
      client.on('error', () => {});
      await client.connect();
      closers.push(async () => client.destroy());
      return client;
    },
    'node-redis 5': async () => {
      const { createClient: createClient5 } = await import('redis5');
      const client = createClient5({ url: redisUrl, disableOfflineQueue: true });
      client.on('error', () => {});
      await client.connect();
      closers.push(async () => client.destroy());
      return client;
    },
    'ioredis 6': async () => {
      const { Redis: Redis6 } = await import('ioredis6');
      const client = new Redis6(redisUrl, { enableOfflineQueue: false, lazyConnect: true });
      client.on('error', () => {});
      await client.connect();
      closers.push(async () => client.disconnect());
      return client;
    },
    'ioredis 5': async () => {
      const client = new Redis(redisUrl, { enableOfflineQueue: false, lazyConnect: true });
      client.on('error', () => {});
      await client.connect();
      closers.push(async () => client.disconnect());
      return client;
    },
  };

  for (const [name, connect] of Object.entries(clients)) {
    it(`${name}: the pause, the quota, the single request and the sealed entry all go through Redis`, async () => {
      const redis = await connect();
      const prefix = freshPrefix();
      const service = await startLookupService(1, (_hash, count, response) => {
        if (count !== 1) return false;
        response.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
        response.end('{"status":"error","message":"slow down"}');
        return true;
      });
      closers.push(() => service.close());
      const { lines, logger } = recordingLogger();
      const client = new HashScanClient({
        apiKey: 'fleet-test-key',
        baseUrl: service.url,
        logger,
        retry: { retries: 1, minDelayMs: 1, maxDelayMs: 2_000 },
        rateLimit: { requestsPerSecond: 100 },
        cache: { secret: SECRET },
        fleet: { redis, prefix, timeoutMs: 1_000 },
      });
      const [hash] = hashes(1, name) as [string];
      await expect(client.scan(hash)).resolves.toMatchObject({ hash });
      expect(service.arrivals).toHaveLength(2);
      // The pause script and the quota's script ran without a single Redis error (their keys live a second only).
      expect(client.stats().fleet).toMatchObject({
        redisErrors: 0,
        redisSkipped: 0,
        pausesReported: 1,
        lookupsOwned: 1,
      });
      expect(lines.filter((line) => line.includes('fleet'))).toEqual([]);
      const admin = new Redis(redisUrl);
      closers.push(async () => admin.disconnect());
      const keys = await admin.keys(`${prefix}:*`);
      expect(keys.some((key) => key.includes(':cache:'))).toBe(true);
      // The single request's key was released once the sealed entry was written.
      expect(keys.some((key) => key.includes(':lookup:'))).toBe(false);
    });
  }
});
