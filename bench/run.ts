/**
 * Runs the benchmarks against the build in dist/ and writes the results.
 *   npm run bench                          # full run → bench/results.json
 *   npm run bench:quick                    # CI smoke run → bench/.tmp/results.json
 *   node --expose-gc --import tsx bench/run.ts --only=throughput,signing   # a subset → bench/.tmp/
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { cacheHits } from './cache-hits.js';
import { duplicates } from './duplicates.js';
import { fleet, fleetTable } from './fleet.js';
import { BENCH_DIR, QUICK, RESULTS_FILE, SETTINGS } from './lib/config.js';
import { machine } from './lib/machine.js';
import { type Results, table } from './lib/report.js';
import { loadSdk } from './lib/sdk.js';
import { startServer } from './lib/server.js';
import { signing } from './signing.js';
import { size } from './size.js';
import { startup } from './startup.js';
import { streaming } from './streaming.js';
import { throughput } from './throughput.js';

const ALL = ['throughput', 'duplicates', 'cacheHits', 'signing', 'streaming', 'size', 'startup', 'fleet'] as const;
const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const selected = new Set<string>(only ?? ALL);
const unknown = [...selected].filter((name) => !(ALL as readonly string[]).includes(name));
if (unknown.length > 0) throw new Error(`unknown benchmark(s): ${unknown.join(', ')}; pick from ${ALL.join(', ')}`);
// A partial run must not replace the full figures.
const output = only === undefined ? RESULTS_FILE : `${BENCH_DIR}.tmp/results.json`;

const started = performance.now();
const sdk = await loadSdk();
const server = await startServer();
const results: Results = {};
const step = async <K extends keyof Results>(name: K, run: () => Promise<NonNullable<Results[K]>>): Promise<void> => {
  if (!selected.has(name)) return;
  const t0 = performance.now();
  results[name] = await run();
  console.error(`${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
};

try {
  await step('throughput', () => throughput(sdk, server, SETTINGS));
  await step('duplicates', () => duplicates(sdk, server, SETTINGS));
  await step('cacheHits', () => cacheHits(sdk, server, SETTINGS));
  await step('signing', () => signing(sdk, SETTINGS));
  await step('streaming', () => streaming(server, SETTINGS));
  await step('size', () => size());
  await step('startup', () => startup(SETTINGS));
  // Fleet figures (shared Redis cache, outage) have a table of their own: see bench/fleet.ts.
  if (selected.has('fleet')) console.log(fleetTable(await fleet(sdk)));
} finally {
  await server.close();
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
console.log(`\n${report.mode} run in ${report.durationS} s; written to ${output}`);

// Timings are never judged (shared machines), but correctness is, in every mode.
const broken = [
  results.duplicates?.requestsMatchUnique === false && 'duplicates: the SDK sent more requests than unique hashes',
  results.signing?.identicalOutput === false && 'signing: signatures differ from the vendor utility',
].filter((problem): problem is string => typeof problem === 'string');
for (const problem of broken) console.error(`BENCHMARK CHECK FAILED: ${problem}`);
if (broken.length > 0) process.exitCode = 1;
