import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/start-sandbox.js';
import { describeWithRedis } from '../helpers/redis.js';
import { spellingsOf } from '../phone/spellings.js';
import { type LimitsReplicaReport, startLimitsReplica } from './limits-helpers.js';
import type { LimitsReplicaConfig } from './limits-replica.js';

/*
 * Issue 35 with real processes and a real Redis: two replicas (child processes, ioredis and node-redis) that
 * spell one phone differently count it as one number; replicas that send for one caller to many numbers
 * share that caller's count.
 */
describeWithRedis('SMS limits across replicas: canonical numbers and callers', (redisUrl) => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await sandbox.close();
  });

  async function run(replicas: ReadonlyArray<Partial<LimitsReplicaConfig>>, given: Record<string, unknown>) {
    const limits = { ...given, onStoreFailure: 'refuse' };
    const prefix = `limits-canonical:${randomUUID()}`;
    const started = replicas.map((replica, index) =>
      startLimitsReplica({
        redisUrl,
        lib: index % 2 === 0 ? 'ioredis' : 'node-redis',
        prefix,
        baseUrl: sandbox.smsUrl,
        accessKeyId: sandbox.accessKeyId,
        accessKeySecret: sandbox.accessKeySecret,
        phoneNumber: '13800138000',
        limits,
        where: 'client',
        // Generous, and nothing sent on a failed read: what is counted is the subject, not a slow machine.
        timeoutMs: 2_000,
        durationMs: 0,
        sends: 12,
        intervalMs: 20,
        ...replica,
      }),
    );
    await Promise.all(started.map((replica) => replica.ready));
    for (const replica of started) replica.go();
    return Promise.all(started.map((replica) => replica.done));
  }
  const delivered = (reports: readonly LimitsReplicaReport[]) =>
    reports.reduce((sum, report) => sum + report.delivered, 0);

  it('two replicas cycling through eight spellings of one phone: perDay 1 delivers one message', async () => {
    const before = sandbox.messages.length;
    const spellings = spellingsOf('13700137000');
    const reports = await run([{ phoneNumbers: spellings }, { phoneNumbers: [...spellings].reverse() }], {
      perRecipient: { perDay: 1 },
    });
    expect(delivered(reports)).toBe(1);
    expect(sandbox.messages.length - before).toBe(1);
    expect(reports.map((report) => report.codes.SEND_LIMITED ?? 0).reduce((a, b) => a + b)).toBe(23);
  }, 60_000);

  it('perCaller: two replicas sending for one caller to many numbers share its count', async () => {
    const before = sandbox.messages.length;
    const numbers = (from: number) => Array.from({ length: 30 }, (_, index) => String(13500000000 + from + index));
    const reports = await run(
      [
        { phoneNumbers: numbers(0), caller: 'session-7f3a' },
        { phoneNumbers: numbers(100), caller: 'session-7f3a' },
      ],
      { perCaller: { perHour: 5 } },
    );
    expect(delivered(reports)).toBe(5);
    expect(sandbox.messages.length - before).toBe(5);
  }, 60_000);
});
