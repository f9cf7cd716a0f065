/**
 * The CLI contest: `hashscan-sms lookup` against the minimal undici client a
 * careful user would write (bench/cli/minimal-client.mjs), each a process of
 * its own reading the same list of distinct SHA-256 hashes, interleaved
 * round by round, against a loopback service answering after 20 ms:
 *
 * - `pinned`: `lookup --concurrency 256`, and the minimal client at 256;
 * - `adaptive`: `lookup` with no `--concurrency` (the adaptive limit);
 * - `workers2`: `lookup --concurrency 256 --workers 2` (128 on each of two
 *   lookup threads): CPU per lookup with threads, no target;
 * - `rate-limited`: `lookup` (adaptive) against a service admitting R
 *   lookups a second (token bucket) and answering 429 + `Retry-After: 1`
 *   beyond: the share answered 429, and the lookups a second against R.
 *
 * - `pinnedBefore`: when `BENCH_BEFORE_DIST` names the `dist/` of another
 *   build (main's, say), its `lookup --concurrency 256`, interleaved in the
 *   same rounds (before/after).
 *
 * Wall time from spawn to exit, CPU (user + system) of the process from a
 * preload (bench/cli/cpu-report.cjs). Results go to /dev/null as NDJSON.
 *
 *   npm run build && [BENCH_BEFORE_DIST=DIR] node --import tsx bench/cli-contest.ts [--lines N] [--rounds N] [--rate R]
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ContestantRun, numberOption, runContestant } from './lib/contestant.js';
import { machine } from './lib/machine.js';
import { startServer } from './lib/server.js';
import { ratio, summarize } from './lib/stats.js';

const args = process.argv.slice(2);
/** `--quick`: proves the contest runs (CI); small sizes, one round, no results file. */
const QUICK = args.includes('--quick');
const LINES = numberOption('lines', QUICK ? 2000 : 100_000);
const ROUNDS = numberOption('rounds', QUICK ? 1 : 3);
const RATE = numberOption('rate', QUICK ? 200 : 1000);
const RATE_LINES = numberOption('rate-lines', QUICK ? 2 * RATE : 30 * RATE);
const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cli-contest-'));

function writeList(path: string, count: number, salt: string): void {
  const lines = Array.from({ length: count }, (_, i) => createHash('sha256').update(`${salt}${i}`).digest('hex'));
  writeFileSync(path, `${lines.join('\n')}\n`);
}

type Run = ContestantRun;

/** One contestant run: a process of its own, stdout to /dev/null. */
function run(command: readonly string[], env: Record<string, string>, allowed: readonly number[] = [0]): Promise<Run> {
  return runContestant(command, { root, scratch: dir, env, allowed });
}

const perLookup = (runs: readonly Run[], lines: number) => ({
  lookupsPerSecond: summarize(
    runs.map((r) => (lines / r.ms) * 1000),
    0,
  ),
  cpuUsPerLookup: summarize(
    runs.map((r) => r.cpuUs / lines),
    1,
  ),
});

async function main(): Promise<void> {
  const list = join(dir, 'hashes.txt');
  writeList(list, LINES, 'contest ');
  const server = await startServer(20);
  const env = { HASHSCAN_BASE_URL: server.url, HASHSCAN_API_KEY: server.apiKey };
  const cli = ['dist/cli.js', 'lookup', '-q', '-f', 'ndjson', '--input', list];
  const before = process.env.BENCH_BEFORE_DIST;
  const contestants: Record<string, readonly string[]> = {
    minimal: ['bench/cli/minimal-client.mjs', list, '256'],
    pinned: [...cli, '--concurrency', '256'],
    adaptive: cli,
    workers2: [...cli, '--concurrency', '256', '--workers', '2'],
    ...(before === undefined || before === ''
      ? {}
      : { pinnedBefore: [join(before, 'cli.js'), ...cli.slice(1), '--concurrency', '256'] }),
  };
  const runs: Record<string, Run[]> = { minimal: [], pinned: [], adaptive: [], workers2: [], pinnedBefore: [] };
  const names = Object.keys(contestants);
  for (let round = 0; round < ROUNDS; round += 1) {
    // Rotated each round, and reversed every other round: no contestant always runs after the same one
    // (a neighbour leaves its sockets, caches and page cache behind).
    const order = names.map((_, i) => names[(i + round) % names.length] as string);
    if (round % 2 === 1) order.reverse();
    for (const name of order) {
      const result = await run(contestants[name] as string[], env);
      runs[name]?.push(result);
      console.error(
        `round ${round + 1} ${name}: ${Math.round((LINES / result.ms) * 1000)}/s, ${(result.cpuUs / LINES).toFixed(1)} µs CPU/lookup`,
      );
    }
  }
  await server.close();

  const limited = await startServer(20, RATE);
  const rateList = join(dir, 'rate.txt');
  writeList(rateList, RATE_LINES, 'rate ');
  const rateRuns: { lookupsPerSecond: number; share429: number }[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    await limited.reset();
    // Exit 2: some lookups still met 429 after their retries (review rows), which a short run's slow start can cause.
    const result = await run(
      ['dist/cli.js', 'lookup', '-q', '-f', 'ndjson', '--input', rateList],
      { HASHSCAN_BASE_URL: limited.url, HASHSCAN_API_KEY: limited.apiKey },
      [0, 2],
    );
    const refused = await limited.refused();
    const answered = await limited.lookups();
    rateRuns.push({ lookupsPerSecond: (RATE_LINES / result.ms) * 1000, share429: refused / (refused + answered) });
    console.error(
      `rate-limited round ${round + 1}: ${Math.round((RATE_LINES / result.ms) * 1000)}/s of ${RATE}, ${refused} answered 429${result.code === 2 ? ', some lookups ended 429 after their retries (exit 2)' : ''}`,
    );
  }
  await limited.close();

  const minimal = runs.minimal as Run[];
  const pinned = runs.pinned as Run[];
  const adaptive = runs.adaptive as Run[];
  const workers2 = runs.workers2 as Run[];
  const pinnedBefore = runs.pinnedBefore as Run[];
  const results = {
    machine: machine(),
    note: 'the service runs on the same machine as the contestants: see machine.load for how busy it was',
    lines: LINES,
    rounds: ROUNDS,
    serverDelayMs: 20,
    contestants: {
      minimal: perLookup(minimal, LINES),
      pinned256: perLookup(pinned, LINES),
      adaptive: perLookup(adaptive, LINES),
      workers2: perLookup(workers2, LINES),
      ...(pinnedBefore.length === 0 ? {} : { pinnedBefore: perLookup(pinnedBefore, LINES) }),
    },
    ratios: {
      pinnedThroughputVsMinimal: ratio(
        minimal.map((r) => r.ms),
        pinned.map((r) => r.ms),
      ),
      pinnedCpuVsMinimal: ratio(
        pinned.map((r) => r.cpuUs),
        minimal.map((r) => r.cpuUs),
      ),
      adaptiveThroughputVsPinned: ratio(
        pinned.map((r) => r.ms),
        adaptive.map((r) => r.ms),
      ),
      workers2CpuVsPinned: ratio(
        workers2.map((r) => r.cpuUs),
        pinned.map((r) => r.cpuUs),
      ),
      ...(pinnedBefore.length === 0
        ? {}
        : {
            pinnedCpuVsBefore: ratio(
              pinned.map((r) => r.cpuUs),
              pinnedBefore.map((r) => r.cpuUs),
            ),
            pinnedBeforeCpuVsMinimal: ratio(
              pinnedBefore.map((r) => r.cpuUs),
              minimal.map((r) => r.cpuUs),
            ),
            pinnedBeforeThroughputVsMinimal: ratio(
              minimal.map((r) => r.ms),
              pinnedBefore.map((r) => r.ms),
            ),
          }),
    },
    rateLimited: {
      ratePerSecond: RATE,
      lines: RATE_LINES,
      throughputVsRate: summarize(rateRuns.map((r) => r.lookupsPerSecond / RATE)),
      share429: summarize(
        rateRuns.map((r) => r.share429),
        4,
      ),
    },
  };
  if (!QUICK) writeFileSync(join(root, 'bench/results.cli.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results.ratios, null, 2), JSON.stringify(results.rateLimited, null, 2));
  rmSync(dir, { recursive: true, force: true });
}

await main();
