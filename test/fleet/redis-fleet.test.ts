/**
 * The fleet as a plugin: `redisFleet()` of `hashscan-sms/fleet` given to the clients' `fleet` option. This file
 * imports the clients from their own modules, never the root entry, so the deprecated `{ redis }` form is not
 * installed here: what works below works through the plugin alone (test/fleet/legacy-fleet.test.ts has the
 * deprecated form).
 */
import { inspect } from 'node:util';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { redisFleet } from '../../src/fleet/index.js';
import { HashScanClient } from '../../src/hashscan/hashscan-client.js';
import { OtpVerifier } from '../../src/otp/otp-verifier.js';
import { SmsClient } from '../../src/sms/sms-client.js';
import { describeWithRedis } from '../helpers/redis.js';
import { freshPrefix, hashes, STUB_REDIS as STUB, sandboxSms } from './fleet-helpers.js';
import { startLookupService } from './lookup-service.js';

const SECRET = 'the-fleet-test-cache-secret-0123456789';

describe('redisFleet()', () => {
  it('checks its options when it is made, not when a client binds it', () => {
    expect(() => redisFleet({ redis: {} as never })).toThrow(ConfigurationError);
    expect(() => redisFleet({ redis: STUB, prefix: '' })).toThrow(/fleet\.prefix/);
    expect(() => redisFleet({ redis: STUB, timeoutMs: -1 })).toThrow(/fleet\.timeoutMs/);
    expect(() => redisFleet({ redis: STUB, lookupWaitMs: -1 })).toThrow(/fleet\.lookupWaitMs/);
    expect(() => redisFleet(undefined as never)).toThrow(ConfigurationError);
  });

  it('is opaque: neither JSON nor util.inspect shows the Redis client it holds', () => {
    const fleet = redisFleet({ redis: { ...STUB, password: 'hunter2-redis' } as never, prefix: 'p' });
    expect(JSON.parse(JSON.stringify(fleet))).toEqual({ kind: 'redis' });
    expect(inspect(fleet, { depth: 5 })).not.toContain('hunter2');
    expect({ ...fleet }).toEqual({ kind: 'redis' });
  });

  it('serves every client; each describes its own part as before', () => {
    const fleet = redisFleet({ redis: STUB, prefix: 'scanner:prod', timeoutMs: 80, lookupWaitMs: 0 });
    const client = new HashScanClient({ apiKey: 'k', baseUrl: 'https://h.test', fleet });
    const sms = new SmsClient({ accessKeyId: 'id', accessKeySecret: 's', baseUrl: 'https://s.test', fleet });
    expect(client.toJSON()).toMatchObject({
      fleet: { redis: 'node-redis', prefix: 'scanner:prod', timeoutMs: 80, lookupWaitMs: 0 },
    });
    expect(sms.toJSON()).toMatchObject({ fleet: { redis: 'node-redis', prefix: 'scanner:prod', timeoutMs: 80 } });
    expect(sms.toJSON().fleet).not.toHaveProperty('lookupWaitMs');
    expect(client.stats().fleet).toMatchObject({ redisErrors: 0, lookupsOwned: 0 });
    expect(sms.stats().fleet).toMatchObject({ redisErrors: 0, sendsLimited: 0 });
  });

  it('without the root entry, the deprecated { redis } form is refused with a clear error naming redisFleet()', () => {
    const make = () => new HashScanClient({ apiKey: 'k', baseUrl: 'https://h.test', fleet: { redis: STUB } });
    expect(make).toThrow(ConfigurationError);
    expect(make).toThrow(/redisFleet\(\) of 'hashscan-sms\/fleet'/);
    const sms = new SmsClient({ accessKeyId: 'id', accessKeySecret: 's', baseUrl: 'https://s.test' });
    expect(() => new OtpVerifier({ sms, templateCode: 'SMS_1', secret: SECRET, fleet: { redis: STUB } })).toThrow(
      /redisFleet/,
    );
  });
});

describeWithRedis('redisFleet() on a real Redis, in one process', (redisUrl) => {
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('two replicas on one plugin: one request per hash, the shared cache in Redis (node-redis and ioredis)', async () => {
    const nodeRedis = createClient({ url: redisUrl, disableOfflineQueue: true });
    nodeRedis.on('error', () => {});
    await nodeRedis.connect();
    closers.push(async () => nodeRedis.destroy());
    const ioredis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true });
    ioredis.on('error', () => {});
    await ioredis.connect();
    closers.push(async () => ioredis.disconnect());
    const service = await startLookupService(20);
    closers.push(() => service.close());
    const prefix = freshPrefix();
    const replica = (fleet: ReturnType<typeof redisFleet>) =>
      new HashScanClient({ apiKey: 'fleet-test-key', baseUrl: service.url, cache: { secret: SECRET }, fleet });
    const a = replica(redisFleet({ redis: nodeRedis, prefix, timeoutMs: 1_000 }));
    const b = replica(redisFleet({ redis: ioredis, prefix, timeoutMs: 1_000 }));
    const list = hashes(8, 'plugin');
    const [fromA, fromB] = await Promise.all([a.scanMany(list), b.scanMany(list)]);
    expect(fromB.map((outcome) => outcome.verdict)).toEqual(fromA.map((outcome) => outcome.verdict));
    expect(fromA.map((outcome) => outcome.verdict)).not.toContain('error');
    // Every hash asked once for the two replicas: the single request per hash and the sealed entries went through Redis.
    expect(service.arrivals).toHaveLength(list.length);
    const owned = (a.stats().fleet?.lookupsOwned ?? 0) + (b.stats().fleet?.lookupsOwned ?? 0);
    expect(owned).toBe(list.length);
    expect(await ioredis.keys(`${prefix}:hashscan:*:cache:*`)).toHaveLength(list.length);
  });

  it('SmsClient counts its limits in the fleet Redis through the plugin', async () => {
    const redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true });
    redis.on('error', () => {});
    await redis.connect();
    closers.push(async () => redis.disconnect());
    const prefix = freshPrefix();
    const { sandbox, sms } = await sandboxSms(closers, {
      fleet: redisFleet({ redis, prefix }),
      limits: { perRecipient: { perMinute: 1 } },
    });
    expect(sms.toJSON()).toMatchObject({ limits: { perMinute: 1, countedIn: 'fleet' } });
    const request = {
      phoneNumbers: '13500000001',
      templateCode: 'SMS_100000001',
      signName: 'Sandbox',
      templateParam: { code: '123456' },
    };
    await expect(sms.send(request)).resolves.toMatchObject({ code: 'OK' });
    await expect(sms.send(request)).rejects.toMatchObject({ code: 'SEND_LIMITED', outcome: 'not_sent' });
    expect(sms.stats().fleet?.sendsLimited).toBe(1);
    expect(await redis.keys(`${prefix}:sms:*:limits:*`)).not.toHaveLength(0);
    expect(sandbox.messages).toHaveLength(1);
  });
});
