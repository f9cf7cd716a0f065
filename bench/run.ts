/**
 * Runs the benchmarks against the build in dist/ and writes the results.
 *   npm run bench                          # full run → bench/results.node<major>.json
 *   npm run bench:quick                    # CI smoke run → bench/.tmp/results.json
 *   node --expose-gc --import tsx bench/run.ts --only=throughput,signing   # a subset → bench/.tmp/
 *   … --rounds=3 --batch=5000              # other figures for a focused run → bench/.tmp/
 *   BENCH_BEFORE_DIST=../other/dist …      # also runs that build's SDK, interleaved (before/after)
 *   node --import tsx bench/table.ts bench/results.node24.json   # the tables of a stored run
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { cacheHits } from './cache-hits.js';
import { duplicates } from './duplicates.js';
import { fleet, fleetTable } from './fleet.js';
import { BENCH_DIR, OVERRIDDEN, QUICK, RESULTS_FILE, SETTINGS } from './lib/config.js';
import { machine } from './lib/machine.js';
import { type Results, table } from './lib/report.js';
import { loadBeforeSdk, loadSdk, type Sdk } from './lib/sdk.js';
import { type BenchServer, startServer } from './lib/server.js';
import { remote } from './remote.js';
import { signing } from './signing.js';
import { size } from './size.js';
import { startup } from './startup.js';
import { streaming } from './streaming.js';
import { throughput } from './throughput.js';

/** What every benchmark may use. */
interface Context {
  readonly sdk: Sdk;
  /** The `BENCH_BEFORE_DIST` build, when given. */
  readonly before: Sdk | undefined;
  /** The loopback server answering at once. */
  readonly server: BenchServer;
}

/**
 * Every benchmark, in running order: its name (for `--only`, and its key in
 * the results) and how to run it. A new benchmark is one entry here.
 */
const BENCHMARKS: { readonly [K in keyof Results]-?: (context: Context) => Promise<NonNullable<Results[K]>> } = {
  throughput: ({ sdk, server, before }) => throughput(sdk, server, SETTINGS, SETTINGS.batch, before),
  remote: ({ sdk, before }) => remote(sdk, SETTINGS, before),
  duplicates: ({ sdk, server }) => duplicates(sdk, server, SETTINGS),
  cacheHits: ({ sdk, server }) => cacheHits(sdk, server, SETTINGS),
  signing: ({ sdk }) => signing(sdk, SETTINGS),
  streaming: ({ server }) => streaming(server, SETTINGS),
  size: () => size(),
  startup: () => startup(SETTINGS),
};
/** Benchmarks that print a table of their own and keep their figures out of the results file. */
const OWN_TABLE: Readonly<Record<string, (context: Context) => Promise<void>>> = {
  // Fleet figures (shared Redis cache, outage): see bench/fleet.ts.
  fleet: async ({ sdk }) => console.log(fleetTable(await fleet(sdk))),
};
const ALL = [...(Object.keys(BENCHMARKS) as (keyof Results)[]), ...Object.keys(OWN_TABLE)];

const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const selected = new Set<string>(only ?? ALL);
const unknown = [...selected].filter((name) => !(ALL as readonly string[]).includes(name));
if (unknown.length > 0) throw new Error(`unknown benchmark(s): ${unknown.join(', ')}; pick from ${ALL.join(', ')}`);
// A partial run must not replace the full figures.
const output = only === undefined && !OVERRIDDEN ? RESULTS_FILE : `${BENCH_DIR}.tmp/results.json`;

const started = performance.now();
const context: Context = { sdk: await loadSdk(), before: await loadBeforeSdk(), server: await startServer() };
const results: Results = {};

try {
  for (const name of Object.keys(BENCHMARKS) as (keyof Results)[]) {
    if (!selected.has(name)) continue;
    const t0 = performance.now();
    const run = BENCHMARKS[name] as (context: Context) => Promise<never>;
    results[name] = await run(context);
    console.error(`${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  for (const [name, run] of Object.entries(OWN_TABLE)) if (selected.has(name)) await run(context);
} finally {
  await context.server.close();
}

const report = {
  date: new Date().toISOString(),
  mode: QUICK ? 'quick' : 'full',
  settings: SETTINGS,
  machine: machine(),
  durationS: Number(((performance.now() - started) / 1000).toFixed(1)),
  results,
};
await mkdir(dirname(output), { recursive: true });
await writeFile(output, `${JSON.stringify(report, null, 2)}\n`);
console.log(table(results, !QUICK));
const { node, cpu, nproc, load } = report.machine;
console.log(
  `\n${report.mode} run in ${report.durationS} s on ${node}, ${cpu} × ${nproc}, load ${load.start} → ${load.end}`,
);
console.log(`written to ${output}`);

// Timings are never judged (shared machines), but correctness is, in every mode.
const broken = [
  results.duplicates?.requestsMatchUnique === false && 'duplicates: a de-duplicating contender sent a repeat',
  results.signing?.identicalOutput === false && 'signing: signatures differ from the vendor utility',
].filter((problem): problem is string => typeof problem === 'string');
for (const problem of broken) console.error(`BENCHMARK CHECK FAILED: ${problem}`);
if (broken.length > 0) process.exitCode = 1;
