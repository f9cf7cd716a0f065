/**
 * One replica of a fleet test, as its own process: `node --import tsx test/fleet/replica.ts`
 * (the tests run it bundled: `test/build-replicas.ts`)
 * with its settings in the `REPLICA` environment variable (JSON). It connects its own Redis
 * client (node-redis or ioredis, offline queue off), runs its workload once `startAt` has come,
 * and prints one JSON line: every outcome in input order, and the client's stats.
 */
import { redisFleet } from '../../src/fleet/index.js';
import { HashScanClient } from '../../src/hashscan/hashscan-client.js';
import { SmsClient } from '../../src/sms/sms-client.js';
import { connectRedis } from './connect-redis.js';

export interface ReplicaConfig {
  readonly redisUrl: string;
  readonly lib: 'node-redis' | 'ioredis';
  readonly prefix: string;
  readonly baseUrl: string;
  /** Epoch ms at which to start, so that replicas begin together. */
  readonly startAt: number;
  readonly scan?: {
    readonly hashes: readonly string[];
    readonly concurrency: number;
    readonly requestsPerSecond?: number;
    readonly lookupWaitMs?: number;
    readonly timeoutMs?: number;
  };
  readonly sms?: {
    readonly accessKeyId: string;
    readonly accessKeySecret: string;
    readonly phoneNumbers: readonly string[];
    readonly limits: { perRecipient?: { perMinute?: number; perHour?: number }; dailyBudget?: number };
  };
}

const config = JSON.parse(process.env.REPLICA ?? '{}') as ReplicaConfig;

const lines: string[] = [];
const logger = {
  debug: () => {},
  info: (line: string) => lines.push(line),
  warn: (line: string) => lines.push(line),
  error: (line: string) => lines.push(line),
};

const { redis, close } = await connectRedis(config.lib, config.redisUrl);
// The test may act on Redis (kill it) only once every replica holds its connection.
process.stderr.write('replica connected\n');
await new Promise((resolve) => setTimeout(resolve, Math.max(0, config.startAt - Date.now())));
if (config.scan !== undefined) {
  const { hashes, concurrency, requestsPerSecond, lookupWaitMs, timeoutMs } = config.scan;
  const client = new HashScanClient({
    apiKey: 'fleet-test-key',
    baseUrl: config.baseUrl,
    logger,
    retry: { retries: 2, minDelayMs: 10, maxDelayMs: 50 },
    circuitBreaker: false,
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(requestsPerSecond !== undefined && { rateLimit: { requestsPerSecond } }),
    cache: { secret: 'the-fleet-test-cache-secret-0123456789', storeTimeoutMs: 1_000 },
    // The plugin form, from the client's own module: no root entry, so no deprecated form installed.
    fleet: redisFleet({
      redis,
      prefix: config.prefix,
      timeoutMs: 1_000,
      ...(lookupWaitMs !== undefined && { lookupWaitMs }),
    }),
  });
  const outcomes = await client.scanMany(hashes, { concurrency });
  const results = outcomes.map((outcome) =>
    outcome.verdict === 'error'
      ? { hash: outcome.hash, error: outcome.error.code }
      : { hash: outcome.hash, verdict: outcome.verdict },
  );
  process.stdout.write(`${JSON.stringify({ results, stats: client.stats(), log: lines })}\n`);
} else if (config.sms !== undefined) {
  const client = new SmsClient({
    accessKeyId: config.sms.accessKeyId,
    accessKeySecret: config.sms.accessKeySecret,
    baseUrl: config.baseUrl,
    logger,
    fleet: redisFleet({ redis, prefix: config.prefix, timeoutMs: 1_000 }),
    limits: config.sms.limits,
  });
  const results: Array<{ code: string; outcome?: string; retryAfterMs?: number }> = [];
  for (const phoneNumbers of config.sms.phoneNumbers) {
    try {
      const sent = await client.send({
        phoneNumbers,
        templateCode: 'SMS_100000001',
        signName: 'Sandbox',
        templateParam: { code: '123456' },
      });
      results.push({ code: sent.code });
    } catch (error) {
      const { code, outcome, retryAfterMs } = error as { code: string; outcome: string; retryAfterMs?: number };
      results.push({ code, outcome, ...(retryAfterMs !== undefined && { retryAfterMs }) });
    }
  }
  process.stdout.write(`${JSON.stringify({ results, stats: client.stats(), log: lines })}\n`);
}
await close();
