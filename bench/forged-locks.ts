/**
 * Forged single-request locks (issue 28, the lock key): 1 000 hashes whose
 * fleet lock key another writer of the shared Redis set with a day to live,
 * against the same 1 000 hashes unlocked, on one client (ioredis, offline
 * queue off) with `fleet` and a throw-away `redis-server`. Before the fix a
 * day-long lock cost the whole `lookupWaitMs` (5 s) per hash; now a lock
 * longer than `lookupWaitMs` is out of range and ignored at once. Rounds
 * interleaved (the order alternates), fresh prefix and hashes each run;
 * lookups/s, median (min–max).
 *
 *   node --import tsx bench/forged-locks.ts              # 3 rounds
 *   node --import tsx bench/forged-locks.ts --rounds 1   # one round
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { keyTag } from '../src/fleet/fleet.js';
import { HashScanClient } from '../src/hashscan/hashscan-client.js';
import { startRedisServer } from '../test/helpers/redis-server.js';
import { summarize } from './lib/stats.js';

const HASHES = 1_000;
const CONCURRENCY = 64;
const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 3;
const DAY_MS = 24 * 3_600_000;

const server = createServer((_request, response) => {
  setTimeout(() => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"status":"success","is_virus":false,"message":"No active service detected this file"}');
  }, 2);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const redisServer = await startRedisServer();
const redis = new Redis(redisServer.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
const attacker = new Redis(redisServer.url);

async function run(locked: boolean): Promise<number> {
  const prefix = `bench:${randomUUID()}`;
  const list = Array.from({ length: HASHES }, () => createHash('sha256').update(randomUUID()).digest('hex'));
  if (locked) {
    const pipeline = attacker.pipeline();
    for (const hash of list) pipeline.set(`${prefix}:hashscan:${keyTag(baseUrl)}:lookup:${hash}`, 'x', 'PX', DAY_MS);
    await pipeline.exec();
  }
  const client = new HashScanClient({
    apiKey: 'bench-key',
    baseUrl,
    cache: { secret: 'the-bench-cache-secret-0123456789abcdef' },
    fleet: { redis, prefix, timeoutMs: 1_000 },
  });
  const started = performance.now();
  const outcomes = await client.scanMany(list, { concurrency: CONCURRENCY });
  const seconds = (performance.now() - started) / 1_000;
  const failed = outcomes.filter((outcome) => outcome.verdict === 'error').length;
  if (failed > 0) throw new Error(`${failed} lookups failed`);
  return HASHES / seconds;
}

const results: Record<'unlocked' | 'locked', number[]> = { unlocked: [], locked: [] };
for (let round = 0; round < ROUNDS; round += 1) {
  const order = round % 2 === 0 ? (['unlocked', 'locked'] as const) : (['locked', 'unlocked'] as const);
  for (const contender of order) results[contender].push(await run(contender === 'locked'));
}
const show = (samples: number[]) => {
  const { median, min, max } = summarize(samples, 0);
  return `${median}/s (${min}–${max})`;
};
console.log(`${HASHES} hashes, concurrency ${CONCURRENCY}, ${ROUNDS} round(s), Node ${process.version}`);
console.log(`unlocked: ${show(results.unlocked)}`);
console.log(`locked with a day to live: ${show(results.locked)}`);
redis.disconnect();
attacker.disconnect();
await redisServer.stop();
server.close();
