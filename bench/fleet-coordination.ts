/**
 * Fleet coordination (issue 24): two replica processes on a workload with
 * repeats against a rate-limited service (a token bucket; beyond it every
 * request is answered 429 with `Retry-After: 1`), each told the quota it was
 * given (`rateLimit.requestsPerSecond`). Without `fleet` each replica spends
 * the whole quota on its own, so together they overrun it (a 429 storm) and
 * ask each other's hashes again; with `fleet` they share one quota, one pause,
 * the verdicts and one request per hash. Rounds interleaved, fresh hashes and
 * keys each round; requests sent, 429s, wall time, CPU per lookup.
 *
 *   node --import tsx bench/fleet-coordination.ts           # full → bench/results.fleet-coordination.json
 *   node --import tsx bench/fleet-coordination.ts --quick   # smaller → bench/.tmp/
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRedisServer } from '../test/helpers/redis-server.js';
import { BENCH_DIR, QUICK } from './lib/config.js';
import { machine } from './lib/machine.js';
import { summarize } from './lib/stats.js';

const CHILD = fileURLToPath(new URL('./lib/fleet-replica-child.ts', import.meta.url));
const SETTINGS = QUICK
  ? { rounds: 1, lookups: 600, unique: 300, concurrency: 16, latencyMs: 10, quota: 200 }
  : { rounds: 5, lookups: 4_000, unique: 1_000, concurrency: 16, latencyMs: 10, quota: 200 };

interface Service {
  readonly url: string;
  requests: number;
  tooMany: number;
  close(): Promise<void>;
}

/** The service: answers after `latencyMs`, within a token bucket of `quota` per second (burst one second). */
async function startService(latencyMs: number, quota: number): Promise<Service> {
  let tokens = quota;
  let refilledAt = performance.now();
  const body = JSON.stringify({ status: 'success', is_virus: false, message: 'No active service detected this file' });
  const state = { requests: 0, tooMany: 0 };
  const server: Server = createServer((request, response) => {
    request.resume();
    state.requests += 1;
    const now = performance.now();
    tokens = Math.min(quota, tokens + ((now - refilledAt) * quota) / 1_000);
    refilledAt = now;
    if (tokens < 1) {
      state.tooMany += 1;
      response.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
      response.end('{"status":"error","message":"rate limited"}');
      return;
    }
    tokens -= 1;
    setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(body), latencyMs);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

interface ReplicaFigures {
  wallMs: number;
  cpuUs: number;
  errors: number;
  requests: number;
  joined: number;
  redisErrors: number;
}

function replica(settings: Record<string, unknown>): Promise<ReplicaFigures> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: { ...process.env, TSX_DISABLE_CACHE: '1', FLEET_REPLICA: JSON.stringify(settings) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as ReplicaFigures) : reject(new Error(`replica exited ${code}`)),
    ),
  );
}

const redis = await startRedisServer();
const modes = ['without fleet', 'with fleet'] as const;
const empty = (): Record<string, number[]> => ({
  requests: [],
  tooMany: [],
  wallMs: [],
  cpuUsPerLookup: [],
  errors: [],
});
const samples: Record<(typeof modes)[number], Record<string, number[]>> = {
  'without fleet': empty(),
  'with fleet': empty(),
};
try {
  for (let round = 0; round < SETTINGS.rounds; round++) {
    for (const mode of round % 2 === 0 ? modes : [...modes].reverse()) {
      const service = await startService(SETTINGS.latencyMs, SETTINGS.quota);
      const common = {
        redisUrl: redis.url,
        baseUrl: service.url,
        prefix: `bench:${randomUUID()}`,
        fleet: mode === 'with fleet',
        seed: randomUUID(),
        lookups: SETTINGS.lookups,
        unique: SETTINGS.unique,
        concurrency: SETTINGS.concurrency,
        requestsPerSecond: SETTINGS.quota,
        startAt: Date.now() + 2_500,
      };
      const figures = await Promise.all([replica({ ...common, replica: 0 }), replica({ ...common, replica: 1 })]);
      await service.close();
      const sample = samples[mode];
      sample.requests?.push(service.requests);
      sample.tooMany?.push(service.tooMany);
      sample.wallMs?.push(Math.max(...figures.map((figure) => figure.wallMs)));
      sample.cpuUsPerLookup?.push(figures.reduce((sum, figure) => sum + figure.cpuUs, 0) / (2 * SETTINGS.lookups));
      sample.errors?.push(figures.reduce((sum, figure) => sum + figure.errors, 0));
      console.log(
        `round ${round + 1} ${mode}: ${service.requests} requests (${service.tooMany} answered 429), ` +
          `${Math.round(Math.max(...figures.map((figure) => figure.wallMs)))} ms, ` +
          `${figures.reduce((sum, figure) => sum + figure.errors, 0)} lookups failed, ` +
          `${figures.reduce((sum, figure) => sum + figure.redisErrors, 0)} Redis calls failed or timed out`,
      );
    }
  }
} finally {
  await redis.stop();
}
const results = {
  machine: machine(),
  settings: SETTINGS,
  note: 'shared 2-core machine, other jobs running: noisy figures',
  modes: Object.fromEntries(
    modes.map((mode) => [
      mode,
      Object.fromEntries(Object.entries(samples[mode]).map(([name, values]) => [name, summarize(values)])),
    ]),
  ),
};
const file = QUICK ? `${BENCH_DIR}.tmp/results.fleet-coordination.json` : `${BENCH_DIR}results.fleet-coordination.json`;
await mkdir(dirname(file), { recursive: true });
await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(JSON.stringify(results.modes, null, 2));
