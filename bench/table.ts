/**
 * Prints the tables of a stored run, as `npm run bench` printed them, or the
 * headline figures of several runs side by side (e.g. one per Node major):
 *   node --import tsx bench/table.ts bench/results.node24.json
 *   node --import tsx bench/table.ts bench/results.node20.json bench/results.node24.json bench/results.node26.json
 */
import { readFileSync } from 'node:fs';
import type { Machine } from './lib/machine.js';
import { type Results, table } from './lib/report.js';
import type { Summary } from './lib/stats.js';

interface Run {
  readonly date: string;
  readonly mode: string;
  readonly durationS: number;
  readonly machine: Machine;
  readonly results: Results;
}

const files = process.argv.slice(2);
if (files.length === 0) throw new Error('usage: table.ts <results.json>...');
const runs = files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as Run);
const about = ({ date, durationS, machine: { node, cpu, nproc, load } }: Run): string =>
  `${date.slice(0, 16)}, ${durationS} s, Node ${node}, ${cpu} × ${nproc}, load ${load.start} → ${load.end}`;

if (runs.length === 1) {
  const [run] = runs as [Run];
  console.log(table(run.results, run.mode === 'full'));
  console.log(`\n${run.mode} run: ${about(run)}`);
} else {
  const m = (s: Summary | undefined, unit = ''): string => (s === undefined ? '–' : `${s.median}${unit}`);
  const rows: [string, (r: Results) => string][] = [
    ['1. CPU µs/request: careful fetch loop', (r) => m(r.throughput?.contenders.careful?.cpuUs)],
    ['1. CPU µs/request: bare fetch loop', (r) => m(r.throughput?.contenders.bare?.cpuUs)],
    ['1. CPU µs/request: hand-written ky loop', (r) => m(r.throughput?.contenders.ky?.cpuUs)],
    ['1. CPU µs/request: SDK (default, ky over fetch)', (r) => m(r.throughput?.contenders.sdk?.cpuUs)],
    ['1. CPU µs/request: SDK before (same run)', (r) => m(r.throughput?.contenders.sdkBefore?.cpuUs)],
    ['1. CPU µs/request: SDK + dispatcher', (r) => m(r.throughput?.contenders.sdkDispatcher?.cpuUs)],
    [
      '1. CPU µs/request: SDK + dispatcher before (same run)',
      (r) => m(r.throughput?.contenders.sdkDispatcherBefore?.cpuUs),
    ],
    ['1. CPU µs/request: undici.request loop', (r) => m(r.throughput?.contenders.undici?.cpuUs)],
    ['1. SDK CPU ÷ ky loop (≤ 1.1×)', (r) => m(r.throughput?.sdkCpuOverKy, '×')],
    ['1. SDK CPU ÷ careful loop (≤ 1.3×)', (r) => m(r.throughput?.sdkCpuOverCareful, '×')],
    ['1. SDK now ÷ before, CPU', (r) => m(r.throughput?.sdkCpuOverBefore, '×')],
    [
      '1. SDK + dispatcher ÷ undici.request, throughput (≥ 0.95×)',
      (r) => m(r.throughput?.sdkDispatcherOverUndici, '×'),
    ],
    ['1b. 20 ms server: SDK ÷ careful loop, throughput (≥ 1.0×)', (r) => m(r.remote?.sdkOverCareful, '×')],
    ['1b. 20 ms server: SDK now ÷ before, throughput', (r) => m(r.remote?.sdkOverBefore, '×')],
    ['2. repeats: SDK ÷ Set loop, throughput', (r) => m(r.duplicates?.sdkOverDeduped, '×')],
    ['2. repeats: SDK ÷ Set loop, CPU', (r) => m(r.duplicates?.sdkCpuOverDeduped, '×')],
    ['3. cache hits per wall-second', (r) => m(r.cacheHits?.opsPerSecond)],
    ['3. cache hits per CPU-second (≥ 500,000)', (r) => m(r.cacheHits?.opsPerCpuSecond)],
    ['4. signing ÷ vendor, wall', (r) => m(r.signing?.sdkOverVendor, '×')],
    ['4. signing ÷ vendor, CPU (≥ 1.5×)', (r) => m(r.signing?.sdkOverVendorCpu, '×')],
  ];
  console.log(`| Figure | ${runs.map((run) => `Node ${run.machine.node}`).join(' | ')} |`);
  console.log(`|---|${runs.map(() => '---').join('|')}|`);
  for (const [name, value] of rows) console.log(`| ${name} | ${runs.map((run) => value(run.results)).join(' | ')} |`);
  for (const run of runs) console.log(`\n- ${about(run)}`);
}
