/**
 * One replica of the fleet-coordination benchmark, as its own process. Its
 * settings come in `FLEET_REPLICA` (JSON); it waits for `startAt`, looks up
 * its share of the workload and prints one JSON line with its figures.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { HashScanClient } from '../../src/hashscan/hashscan-client.js';

interface ReplicaSettings {
  readonly redisUrl: string;
  readonly baseUrl: string;
  readonly prefix: string;
  readonly fleet: boolean;
  readonly seed: string;
  readonly replica: number;
  readonly lookups: number;
  readonly unique: number;
  readonly concurrency: number;
  readonly requestsPerSecond: number;
  readonly startAt: number;
}

const settings = JSON.parse(process.env.FLEET_REPLICA ?? '{}') as ReplicaSettings;
// Each replica sees the same hashes in its own order: repeats within and across replicas.
const hashes = Array.from({ length: settings.lookups }, (_, index) => {
  const pick = (index * 7_919 + settings.replica * 104_729) % settings.unique;
  return createHash('sha256').update(`${settings.seed}:${pick}`).digest('hex');
});
const redis = new Redis(settings.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
redis.on('error', () => {});
await redis.connect();
const client = new HashScanClient({
  apiKey: 'fleet-bench-key',
  baseUrl: settings.baseUrl,
  rateLimit: { requestsPerSecond: settings.requestsPerSecond },
  ...(settings.fleet && { fleet: { redis, prefix: settings.prefix } }),
});
await new Promise((resolve) => setTimeout(resolve, Math.max(0, settings.startAt - Date.now())));
const cpu = process.cpuUsage();
const started = performance.now();
const outcomes = await client.scanMany(hashes, { concurrency: settings.concurrency });
const wallMs = performance.now() - started;
const used = process.cpuUsage(cpu);
const stats = client.stats();
process.stdout.write(
  `${JSON.stringify({
    wallMs,
    cpuUs: used.user + used.system,
    errors: outcomes.filter((outcome) => outcome.verdict === 'error').length,
    requests: stats.requests,
    joined: stats.fleet?.lookupsJoined ?? 0,
    redisErrors: stats.fleet?.redisErrors ?? 0,
  })}\n`,
);
redis.disconnect();
