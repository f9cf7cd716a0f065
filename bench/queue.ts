/**
 * Batches across machines (issue 24): one `lookup --queue` run of N distinct
 * stored hashes over 1, 2 and 3 `worker` processes of the built CLI, every
 * process on this machine (the service and Redis share its cores, so the
 * figures are per worker: lookups/s each, and CPU per lookup from the
 * workers' own CPU time). Each run uses a fresh Redis, so no verdict is
 * shared between runs.
 *
 *   npm run build && node --import tsx bench/queue.ts [--lines N] [--quick]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRedisServer } from '../test/helpers/redis-server.js';
import { BENCH_DIR, QUICK } from './lib/config.js';
import { machine } from './lib/machine.js';
import { startServer } from './lib/server.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const argLines = process.argv.indexOf('--lines');
const LINES = argLines > 0 ? Number(process.argv[argLines + 1]) : QUICK ? 6_000 : 200_000;
const argRounds = process.argv.indexOf('--rounds');
const ROUNDS = argRounds > 0 ? Number(process.argv[argRounds + 1]) : QUICK ? 1 : 2;
const LATENCY_MS = 5;
const WORKER_COUNTS = [1, 2, 3];

/** CPU time of a live process so far, in µs (Linux: utime + stime from /proc, in clock ticks of 10 ms). */
function cpuUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

function run(args: string[], env: NodeJS.ProcessEnv, stdout: 'ignore' | 'pipe' = 'ignore'): ChildProcess {
  return spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout, 'inherit'],
  });
}

const input = join(tmpdir(), `hashscan-sms-queue-bench-${process.pid}.txt`);
writeFileSync(
  input,
  `${Array.from({ length: LINES }, (_, index) => createHash('sha256').update(`queue-bench:${index}`).digest('hex')).join('\n')}\n`,
);
const service = await startServer(LATENCY_MS);
const env = { HASHSCAN_API_KEY: service.apiKey, HASHSCAN_BASE_URL: service.url };
const figures: Array<Record<string, number>> = [];
try {
  // Rounds interleaved: each round runs 1, 2 and 3 workers, in an order that turns round by round.
  const order = Array.from({ length: ROUNDS }, (_, round) =>
    WORKER_COUNTS.map((_, index) => WORKER_COUNTS[(index + round) % WORKER_COUNTS.length] as number),
  ).flat();
  for (const workers of order) {
    const redis = await startRedisServer();
    await service.reset();
    const children = Array.from({ length: workers }, () =>
      run(['worker', '--queue', redis.url, '--concurrency', '64', '--jobs', '2', '-q'], env),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const before = children.map((child) => cpuUs(child.pid ?? 0));
    const started = performance.now();
    const producer = run(
      ['lookup', '--queue', redis.url, '--input', input, '-f', 'ndjson', '-q', '--chunk-size', '500'],
      env,
    );
    const code = await new Promise<number | null>((resolve) => producer.once('exit', resolve));
    const wallMs = performance.now() - started;
    const used = children.map((child, index) => cpuUs(child.pid ?? 0) - (before[index] ?? 0));
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))));
    await redis.stop();
    const requests = await service.lookups();
    const row = {
      workers,
      round: Math.floor(figures.length / WORKER_COUNTS.length) + 1,
      lines: LINES,
      exitStatus: code ?? -1,
      wallMs: Math.round(wallMs),
      lookupsPerSecond: Math.round(LINES / (wallMs / 1_000)),
      lookupsPerSecondPerWorker: Math.round(LINES / (wallMs / 1_000) / workers),
      workerCpuUsPerLookup: Math.round(used.reduce((sum, value) => sum + value, 0) / LINES),
      requests,
    };
    figures.push(row);
    console.log(JSON.stringify(row));
  }
} finally {
  await service.close();
}
const file = QUICK ? `${BENCH_DIR}.tmp/results.queue.json` : `${BENCH_DIR}results.queue.json`;
await mkdir(dirname(file), { recursive: true });
await writeFile(
  file,
  `${JSON.stringify({ machine: machine(), latencyMs: LATENCY_MS, note: 'shared 2-core machine: service, Redis, producer and workers on the same cores; noisy', figures }, null, 2)}\n`,
);
