import { afterAll, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/start-sandbox.js';
import { describeWithRedis } from '../helpers/redis.js';
import { freshPrefix, runReplica } from './fleet-helpers.js';

const START_DELAY_MS = 2_500;

describeWithRedis('SmsClient fleet limits: replicas as separate processes on a real Redis', (redisUrl) => {
  const sandboxes: Sandbox[] = [];
  afterAll(async () => {
    await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
  });

  async function replicas(phoneNumbers: [string[], string[]], limits: object) {
    const sandbox = await startSandbox();
    sandboxes.push(sandbox);
    const startAt = Date.now() + START_DELAY_MS;
    const common = { redisUrl, prefix: freshPrefix(), baseUrl: sandbox.smsUrl, startAt };
    const sms = { accessKeyId: sandbox.accessKeyId, accessKeySecret: sandbox.accessKeySecret, limits };
    const [a, b] = await Promise.all([
      runReplica({ ...common, lib: 'node-redis', sms: { ...sms, phoneNumbers: phoneNumbers[0] } }).done,
      runReplica({ ...common, lib: 'ioredis', sms: { ...sms, phoneNumbers: phoneNumbers[1] } }).done,
    ]);
    return { sandbox, results: [...a.results, ...b.results], a, b };
  }

  it('the 2nd message to one number within a minute is refused across two replicas, without a request', async () => {
    const { sandbox, results } = await replicas([['13800000001'], ['13800000001']], {
      perRecipient: { perMinute: 1, perHour: 5 },
    });
    expect(results.map((result) => result.code).sort()).toEqual(['OK', 'SEND_LIMITED']);
    const refused = results.find((result) => result.code === 'SEND_LIMITED');
    expect(refused).toMatchObject({ outcome: 'not_sent' });
    expect((refused as { retryAfterMs?: number }).retryAfterMs).toBeGreaterThan(50_000);
    expect(sandbox.messages).toHaveLength(1);
    expect(sandbox.requests).toHaveLength(1);
  }, 60_000);

  it('the daily budget holds across replicas; other numbers are not held by one number’s limit', async () => {
    const numbers = (from: number) =>
      Array.from({ length: 4 }, (_, index) => `1390000${String(from + index).padStart(4, '0')}`);
    const { sandbox, results } = await replicas([numbers(0), numbers(10)], {
      perRecipient: { perMinute: 1 },
      dailyBudget: 5,
    });
    expect(results.filter((result) => result.code === 'OK')).toHaveLength(5);
    expect(results.filter((result) => result.code === 'SEND_LIMITED')).toHaveLength(3);
    expect(sandbox.messages).toHaveLength(5);
    expect(sandbox.requests).toHaveLength(5);
  }, 60_000);
});
