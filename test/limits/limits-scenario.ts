import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { SmsClient } from '../../src/index.js';
import { startSandbox } from '../../src/sandbox/start-sandbox.js';
import { startDelayProxy } from '../helpers/delay-proxy.js';
import type { RedisServer } from '../helpers/redis-server.js';
import { type LimitsReplicaReport, startLimitsReplica } from './limits-helpers.js';

/*
 * The scenario of issue 28, finding 4: `perHour: 3, dailyBudget: 5`, three
 * sends to one number already made (by another process, through Redis), then
 * replicas (child processes) keep sending to that number while Redis is
 * slowed by a delaying TCP proxy, jittered, or stopped with SIGSTOP.
 */

/** How Redis misbehaves while the replicas send. */
export type RedisCondition = 'none' | 'slow' | 'jitter' | 'stall';

export interface ScenarioOptions {
  readonly redis: RedisServer;
  readonly replicas: number;
  readonly condition: RedisCondition;
  /** Absent: the limits as today's code reads them (no `onStoreFailure`). */
  readonly onStoreFailure?: 'local' | 'refuse';
  readonly durationMs: number;
  readonly intervalMs: number;
}

export interface ScenarioResult {
  /** Messages the service accepted for the number after the first three, per replica. */
  readonly perReplica: readonly number[];
  /** All of them, counted by the service. */
  readonly extra: number;
  readonly reports: readonly LimitsReplicaReport[];
}

const SCENARIO_LIMITS = { perRecipient: { perHour: 3 }, dailyBudget: 5 } as const;
const PHONE = '13800009999';

/** Runs the scenario once, with a fresh prefix and a fresh sandbox. */
export async function runScenario(options: ScenarioOptions): Promise<ScenarioResult> {
  const sandbox = await startSandbox();
  const proxy = await startDelayProxy(options.redis.port, 0);
  const prefix = `limits-scenario:${randomUUID()}`;
  const limits = {
    ...SCENARIO_LIMITS,
    ...(options.onStoreFailure !== undefined && { onStoreFailure: options.onStoreFailure }),
  };
  const credentials = { accessKeyId: sandbox.accessKeyId, accessKeySecret: sandbox.accessKeySecret };
  try {
    // Three sends already made, through Redis, by another process's client.
    const setupRedis = new Redis(options.redis.url, { enableOfflineQueue: false, lazyConnect: true });
    await setupRedis.connect();
    const setup = new SmsClient({
      ...credentials,
      baseUrl: sandbox.smsUrl,
      fleet: { redis: setupRedis, prefix, timeoutMs: 2_000, limits },
    });
    const request = {
      phoneNumbers: PHONE,
      templateCode: 'SMS_100000001',
      signName: 'Sandbox',
      templateParam: { code: '1' },
    };
    for (let sent = 0; sent < 3; sent++) await setup.send(request);
    setupRedis.disconnect();
    if (sandbox.messages.length !== 3) throw new Error(`setup sent ${sandbox.messages.length} messages`);

    if (options.condition === 'slow') proxy.setDelay(100);
    if (options.condition === 'jitter') proxy.setDelay(() => 10 + Math.random() * 80);
    const replicas = Array.from({ length: options.replicas }, (_, index) =>
      startLimitsReplica({
        ...credentials,
        redisUrl: `redis://127.0.0.1:${proxy.port}`,
        lib: index % 2 === 0 ? 'ioredis' : 'node-redis',
        prefix,
        baseUrl: sandbox.smsUrl,
        phoneNumber: PHONE,
        limits,
        durationMs: options.durationMs,
        intervalMs: options.intervalMs,
      }),
    );
    await Promise.all(replicas.map((replica) => replica.ready));
    if (options.condition === 'stall') process.kill(options.redis.pid, 'SIGSTOP');
    for (const replica of replicas) replica.go();
    const resume = setTimeout(() => {
      if (options.condition === 'stall') process.kill(options.redis.pid, 'SIGCONT');
    }, options.durationMs + 500);
    const reports = await Promise.all(replicas.map((replica) => replica.done)).finally(() => {
      clearTimeout(resume);
      if (options.condition === 'stall') process.kill(options.redis.pid, 'SIGCONT');
    });
    return {
      perReplica: reports.map((report) => report.delivered),
      extra: sandbox.messages.length - 3,
      reports,
    };
  } finally {
    await proxy.close();
    await sandbox.close();
  }
}
