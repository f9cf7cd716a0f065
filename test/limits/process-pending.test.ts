import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SmsClient } from '../../src/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/start-sandbox.js';
import { freshPrefix } from '../fleet/fleet-helpers.js';
import { type DelayProxy, startDelayProxy } from '../helpers/delay-proxy.js';
import { describeWithRedis } from '../helpers/redis.js';

/*
 * With `fleet` and `onStoreFailure: 'local'`, a replica lets at most one message per number through
 * while Redis cannot record it. The sends it owes Redis belong to the process, not to one client: a
 * second client of the same account in the same replica (built per request) must not let a second one
 * through on its own.
 */
describeWithRedis('SmsClient limits: the sends a replica owes Redis are the whole process’s', (redisUrl) => {
  let sandbox: Sandbox;
  let proxy: DelayProxy;
  const connections: Redis[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox();
    proxy = await startDelayProxy(Number(new URL(redisUrl).port), 0);
  });
  afterAll(async () => {
    for (const connection of connections) connection.disconnect();
    await proxy.close();
    await sandbox.close();
  });

  async function client(prefix: string) {
    const redis = new Redis(`redis://127.0.0.1:${proxy.port}`, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    redis.on('error', () => {});
    connections.push(redis);
    await new Promise((resolve) => redis.once('ready', resolve));
    return new SmsClient({
      accessKeyId: sandbox.accessKeyId,
      accessKeySecret: sandbox.accessKeySecret,
      baseUrl: sandbox.smsUrl,
      fleet: { redis, prefix, timeoutMs: 250 },
      limits: { perRecipient: { perHour: 5 } },
    });
  }
  const send = (sms: SmsClient, phoneNumbers: string) =>
    sms.send({ phoneNumbers, templateCode: 'SMS_100000001', signName: 'Sandbox', templateParam: { code: '1' } }).then(
      (result) => result.code,
      (error: unknown) => (error as { code: string }).code,
    );

  it('Redis too slow: one client lets one message through, a second client of the account none to that number', async () => {
    const prefix = freshPrefix();
    const first = await client(prefix);
    const second = await client(prefix);
    const before = sandbox.messages.length;
    // Far longer than the test: a late reply that recorded the first send would rightly let a second one go.
    proxy.setDelay(8_000);
    try {
      expect(await send(first, '13100131000')).toBe('OK');
      expect(await send(second, '+86 131 0013 1000')).toBe('LIMITS_UNAVAILABLE');
      expect(await send(second, '13100131001')).toBe('OK'); // another number: its own one message
      expect(sandbox.messages.length - before).toBe(2);
      expect(second.stats().limits).toMatchObject({ allowedLocally: 1, refusedUnavailable: 1 });
    } finally {
      proxy.setDelay(0);
    }
  }, 30_000);
});
