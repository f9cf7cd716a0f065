/**
 * Prints the tables of a stored run, as `npm run bench` printed them:
 *   node --import tsx bench/table.ts bench/results.node24.json
 */
import { readFileSync } from 'node:fs';
import type { Machine } from './lib/machine.js';
import { type Results, table } from './lib/report.js';

const [file] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: table.ts <results.json>');
const run = JSON.parse(readFileSync(file, 'utf8')) as {
  date: string;
  mode: string;
  durationS: number;
  machine: Machine;
  results: Results;
};
console.log(table(run.results, run.mode === 'full'));
const { node, cpu, nproc, load } = run.machine;
console.log(
  `\n${run.mode} run of ${run.date} in ${run.durationS} s on Node ${node}, ${cpu} × ${nproc}, load ${load.start} → ${load.end}`,
);
