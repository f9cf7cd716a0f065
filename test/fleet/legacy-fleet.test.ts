/**
 * The deprecated `fleet: { redis, … }` form, through the root entry as a user imports it: the same settings,
 * counters and Redis keys as `redisFleet()`, so replicas of both forms share one fleet while a service upgrades.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { redisFleet } from '../../src/fleet/index.js';
import { HashScanClient, OtpVerifier, SmsClient } from '../../src/index.js';
import { describeWithRedis } from '../helpers/redis.js';
import { freshPrefix, hashes, STUB_REDIS as STUB, sandboxSms } from './fleet-helpers.js';
import { startLookupService } from './lookup-service.js';

const SECRET = 'the-fleet-test-cache-secret-0123456789';
const SMS = { accessKeyId: 'id', accessKeySecret: 's', baseUrl: 'https://s.test' };

describe('the deprecated fleet: { redis } form, from the root entry', () => {
  it('HashScanClient and SmsClient describe it as the plugin form', () => {
    const settings = { redis: STUB, prefix: 'scanner:prod', timeoutMs: 80, lookupWaitMs: 1_000 };
    const legacy = new HashScanClient({ apiKey: 'k', baseUrl: 'https://h.test', fleet: settings });
    const plugin = new HashScanClient({ apiKey: 'k', baseUrl: 'https://h.test', fleet: redisFleet(settings) });
    expect(legacy.toJSON()).toEqual(plugin.toJSON());
    expect(legacy.toJSON()).toMatchObject({
      fleet: { redis: 'node-redis', prefix: 'scanner:prod', lookupWaitMs: 1_000 },
    });
    expect(legacy.stats()).toEqual(plugin.stats());

    const limits = { perRecipient: { perMinute: 1 }, dailyBudget: 10 };
    const fleetLimits = new SmsClient({ ...SMS, fleet: { redis: STUB, prefix: 'p', limits } });
    const clientLimits = new SmsClient({ ...SMS, fleet: { redis: STUB, prefix: 'p' }, limits });
    const pluginLimits = new SmsClient({ ...SMS, fleet: redisFleet({ redis: STUB, prefix: 'p' }), limits });
    expect(fleetLimits.toJSON()).toEqual(pluginLimits.toJSON());
    expect(clientLimits.toJSON()).toEqual(pluginLimits.toJSON());
    expect(pluginLimits.toJSON()).toMatchObject({ limits: { countedIn: 'fleet' }, fleet: { prefix: 'p' } });
  });

  it('is checked when the client is made, with the same errors as before', () => {
    expect(() => new HashScanClient({ apiKey: 'k', baseUrl: 'https://h.test', fleet: { redis: {} as never } })).toThrow(
      /fleet\.redis/,
    );
    expect(() => new SmsClient({ ...SMS, fleet: { redis: STUB, prefix: '' } })).toThrow(/fleet\.prefix/);
    // `lookupWaitMs` means nothing for sends: as before, an SmsClient never read it.
    expect(() => new SmsClient({ ...SMS, fleet: { redis: STUB, lookupWaitMs: -1 } as never })).not.toThrow();
    expect(
      () => new SmsClient({ ...SMS, fleet: { redis: STUB, limits: { perRecipient: { perMinute: 1 } } }, limits: {} }),
    ).toThrow(/fleet\.limits/);
  });
});

describeWithRedis('the deprecated form and the plugin share one fleet on a real Redis', (redisUrl) => {
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  async function ioredis() {
    const redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true });
    redis.on('error', () => {});
    await redis.connect();
    closers.push(async () => redis.disconnect());
    return redis;
  }

  it('HashScanClient: an answer one form stored is the other form’s, without a request', async () => {
    const redis = await ioredis();
    const service = await startLookupService(5);
    closers.push(() => service.close());
    const prefix = freshPrefix();
    const common = { apiKey: 'fleet-test-key', baseUrl: service.url, cache: { secret: SECRET } };
    const legacy = new HashScanClient({ ...common, fleet: { redis, prefix } });
    const plugin = new HashScanClient({ ...common, fleet: redisFleet({ redis, prefix }) });
    const list = hashes(4, 'legacy');
    const first = await legacy.scanMany(list);
    const second = await plugin.scanMany(list);
    expect(second.map((outcome) => outcome.verdict)).toEqual(first.map((outcome) => outcome.verdict));
    expect(service.arrivals).toHaveLength(list.length);
    expect(plugin.stats().cache).toMatchObject({ sharedHits: list.length });
  });

  it('OtpVerifier: a code sent by a replica on the deprecated form is checked by one on the plugin, once', async () => {
    const redis = await ioredis();
    const prefix = freshPrefix();
    const { sandbox, sms } = await sandboxSms(closers);
    const common = { sms, templateCode: 'SMS_100000001', secret: 'a shared secret of at least 32 bytes, for tests' };
    const legacy = new OtpVerifier({ ...common, fleet: { redis, prefix } });
    const plugin = new OtpVerifier({ ...common, fleet: redisFleet({ redis, prefix }) });
    await legacy.send({ phoneNumber: '13800138000' });
    const code = String((sandbox.messages[0]?.templateParam as { code?: unknown } | undefined)?.code);
    await expect(plugin.check({ phoneNumber: '+86 138 0013 8000', code })).resolves.toEqual({ valid: true });
    await expect(legacy.check({ phoneNumber: '13800138000', code })).resolves.toMatchObject({ valid: false });
  });
});
