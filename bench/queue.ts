/**
 * Batches across machines (issues 24 and 34): the same N distinct stored
 * hashes looked up by one `lookup --input` process, and by one `lookup
 * --queue` run over 1 and 3 `worker` processes of the built CLI, every
 * process on this machine, interleaved round by round. CPU per lookup counts
 * every process of a contender: the producer and the workers (their own user
 * + system time), against the one process's. Each queue run uses a fresh
 * Redis, so no verdict is shared between runs.
 *
 *   npm run build && node --import tsx bench/queue.ts [--lines N] [--rounds R] [--latency MS] [--quick]
 *   … --workers 0,1,3  the contenders (0: one local process)
 *   … --cli PATH       the built CLI to run (default dist/cli.js)
 *   … --profile DIR    also writes a --cpu-prof of each process
 *   … --chunk-size N   the producer's --chunk-size (default: the CLI's own default)
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
import { summarize } from './lib/stats.js';

const flag = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
/** `--cli PATH`: another build of the CLI (an earlier commit's, to compare). */
const CLI = flag('--cli') ?? fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const LINES = Number(flag('--lines') ?? (QUICK ? 6_000 : 100_000));
const ROUNDS = Number(flag('--rounds') ?? (QUICK ? 1 : 3));
const LATENCY_MS = Number(flag('--latency') ?? 20);
const PROFILE = flag('--profile');
/** `--chunk-size N`: the producer's lines per chunk; without it, the CLI's default. */
const CHUNK_SIZE = flag('--chunk-size');
/** What a careful user runs: the worker flags docs/operating.md gives, and a local run with its defaults. */
const WORKER_FLAGS = ['--concurrency', '64', '--jobs', '2', '-q'];
/** Contenders (`--workers 0,1,3`): 0 workers is one local `lookup` process. */
const CONTENDERS = (flag('--workers') ?? '0,1,3').split(',').map(Number);

/** Ticks of CPU time (user + system) so far: of a live process, or (`children`) of this process's reaped children. */
function cpuTicks(pid: number | 'self', children = false): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const at = children ? 13 : 11;
  return Number(fields[at]) + Number(fields[at + 1]);
}
/** Clock ticks are 10 ms on Linux. */
const TICK_US = 10_000;

function run(args: string[], env: NodeJS.ProcessEnv, name: string): ChildProcess {
  const profile =
    PROFILE === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`, `--cpu-prof-name=${name}.cpuprofile`];
  return spawn(process.execPath, [...profile, CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const exited = (child: ChildProcess): Promise<number | null> =>
  new Promise((resolve) => child.once('exit', (code) => resolve(code)));

/** A reaped child's CPU: what this process's children total gained across its life (only it ends meanwhile). */
async function measured(child: ChildProcess, before: number): Promise<{ code: number | null; cpuUs: number }> {
  const code = await exited(child);
  return { code, cpuUs: (cpuTicks('self', true) - before) * TICK_US };
}

const input = join(tmpdir(), `hashscan-sms-queue-bench-${process.pid}.txt`);
writeFileSync(
  input,
  `${Array.from({ length: LINES }, (_, index) => createHash('sha256').update(`queue-bench:${index}`).digest('hex')).join('\n')}\n`,
);
const service = await startServer(LATENCY_MS);
const env = { HASHSCAN_API_KEY: service.apiKey, HASHSCAN_BASE_URL: service.url };
const figures: Array<Record<string, number>> = [];

async function oneProcess(round: number): Promise<Record<string, number>> {
  const before = cpuTicks('self', true);
  const started = performance.now();
  const child = run(['lookup', '--input', input, '-f', 'ndjson', '-q'], env, `local-${round}`);
  const { code, cpuUs } = await measured(child, before);
  const wallMs = performance.now() - started;
  return { workers: 0, exitStatus: code ?? -1, wallMs, producerCpuUs: cpuUs, workerCpuUs: 0 };
}

async function queued(workers: number, round: number): Promise<Record<string, number>> {
  const redis = await startRedisServer();
  try {
    const children = Array.from({ length: workers }, (_, index) =>
      run(['worker', '--queue', redis.url, ...WORKER_FLAGS], env, `worker-${workers}-${round}-${index}`),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // Workers' CPU from their start: a worker's start-up is part of what a run costs.
    const before = cpuTicks('self', true);
    const started = performance.now();
    const producer = run(
      [
        'lookup',
        '--queue',
        redis.url,
        '--input',
        input,
        '-f',
        'ndjson',
        '-q',
        ...(CHUNK_SIZE === undefined ? [] : ['--chunk-size', CHUNK_SIZE]),
      ],
      env,
      `producer-${workers}-${round}`,
    );
    const { code, cpuUs } = await measured(producer, before);
    const wallMs = performance.now() - started;
    const used = children.map((child) => cpuTicks(child.pid ?? 0) * TICK_US);
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map(exited));
    return {
      workers,
      exitStatus: code ?? -1,
      wallMs,
      producerCpuUs: cpuUs,
      workerCpuUs: used.reduce((sum, value) => sum + value, 0),
    };
  } finally {
    await redis.stop();
  }
}

try {
  for (let round = 0; round < ROUNDS; round += 1) {
    // Interleaved: each round runs every contender, in an order that turns round by round.
    for (let index = 0; index < CONTENDERS.length; index += 1) {
      const workers = CONTENDERS[(index + round) % CONTENDERS.length] as number;
      await service.reset();
      const measuredRun = workers === 0 ? await oneProcess(round) : await queued(workers, round);
      const requests = await service.lookups();
      const { wallMs, producerCpuUs, workerCpuUs } = measuredRun as {
        wallMs: number;
        producerCpuUs: number;
        workerCpuUs: number;
      };
      const row = {
        ...measuredRun,
        round: round + 1,
        lines: LINES,
        wallMs: Math.round(wallMs),
        lookupsPerSecond: Math.round(LINES / (wallMs / 1_000)),
        producerCpuS: producerCpuUs / 1e6,
        workerCpuS: workerCpuUs / 1e6,
        cpuUsPerLookup: Math.round((producerCpuUs + workerCpuUs) / LINES),
        requests,
      };
      figures.push(row);
      console.log(JSON.stringify(row));
    }
  }
} finally {
  await service.close();
}

const byContender = CONTENDERS.map((workers) => {
  const rows = figures.filter((row) => row.workers === workers);
  const local = figures.filter((row) => row.workers === 0);
  return {
    contender: workers === 0 ? 'one process' : `queue, ${workers} worker${workers === 1 ? '' : 's'}`,
    cpuUsPerLookup: summarize(
      rows.map((row) => row.cpuUsPerLookup as number),
      0,
    ),
    // Against one process in the same round.
    cpuRatio: summarize(
      rows.map(
        (row) =>
          (row.cpuUsPerLookup as number) / (local.find((each) => each.round === row.round)?.cpuUsPerLookup as number),
      ),
      2,
    ),
    lookupsPerSecond: summarize(
      rows.map((row) => row.lookupsPerSecond as number),
      0,
    ),
  };
});
console.log(JSON.stringify(byContender, null, 2));
const file = QUICK ? `${BENCH_DIR}.tmp/results.queue.json` : `${BENCH_DIR}results.queue.json`;
await mkdir(dirname(file), { recursive: true });
await writeFile(
  file,
  `${JSON.stringify({ machine: machine(), latencyMs: LATENCY_MS, workerFlags: WORKER_FLAGS, chunkSize: CHUNK_SIZE ?? 'the CLI default (500)', note: 'shared 2-core machine: service, Redis, producer and workers on the same cores; noisy', summary: byContender, figures }, null, 2)}\n`,
);
