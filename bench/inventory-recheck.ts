/**
 * A day-two re-check of a tree where nothing changed (issue 34): wall time,
 * CPU (user + system of the process tree) and bytes read (`rchar` of the Node
 * processes), interleaved rounds, medians with min–max, for
 *  - `find TREE -type f -printf '%s %T@ %i %p\n'`: the stat floor;
 *  - `scan --inventory` (every file reported, and `--changes-only`);
 *  - the manifest approach (bench/inventory/manifest-recheck.mjs: size + mtime + digest, rehash only changes);
 *  - two floors of a Node process: only the walk and a stat per file (bench/inventory/floor-walk.mjs),
 *    only the inventory's rows read back (bench/inventory/floor-rows.mjs);
 *  - a full rescan (`scan` without inventory: every file read and looked up).
 * The service is the sandbox in this process; answers are fresh (default --max-age), so the
 * inventory runs ask nothing. Run after `npm run build` (dist/cli.js). BENCH_BEFORE_DIST=DIR adds
 * another build's `scan --inventory` (DIR/cli.js) to the same rounds.
 * Usage: node --import tsx bench/inventory-recheck.ts [--quick] [--files N] [--rounds N]
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../src/sandbox/index.js';
import { interleave } from './lib/interleave.js';
import { type Summary, summarize } from './lib/stats.js';

const args = process.argv.slice(2);
const QUICK = args.includes('--quick');
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : Number(args[at + 1]);
};
const FILES = option('--files', QUICK ? 500 : 100_000);
const ROUNDS = option('--rounds', QUICK ? 1 : 5);
const FULL_RESCAN = !args.includes('--no-rescan');
const BEFORE_DIST = process.env.BENCH_BEFORE_DIST;

/** Each Node process writes its `/proc/self/io` at exit, to a file named by BENCH_IO_DIR and its pid. */
const IO_HOOK = `data:text/javascript,${encodeURIComponent(
  "import{readFileSync,writeFileSync}from'node:fs';process.on('exit',()=>{try{writeFileSync(process.env.BENCH_IO_DIR+'/'+process.pid,readFileSync('/proc/self/io'))}catch{}})",
)}`;

interface Figure {
  readonly ms: number;
  readonly cpuMs: number;
  readonly readBytes: number;
}

const dir = await mkdtemp(join(tmpdir(), 'bench-inventory-'));
const tree = join(dir, 'tree');
for (let i = 0; i < FILES; i += 1) {
  const folder = join(tree, `d${Math.floor(i / 1000)}`);
  if (i % 1000 === 0) mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `f${i}.bin`), randomBytes(256 + (i % 16) * 256));
}
const sandbox = await startSandbox({ recordLimit: 1 });
const env = { ...process.env, HASHSCAN_BASE_URL: sandbox.hashScanUrl, HASHSCAN_API_KEY: sandbox.apiKey };

/** Runs `command` under bash, its output to /dev/null, and reads the children's CPU from `times`. */
function run(command: string): Promise<Figure> {
  const ioDir = join(dir, `io-${process.hrtime.bigint()}`);
  mkdirSync(ioDir);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('bash', ['-c', `${command} > /dev/null; status=$?; times; exit $status`], {
      env: { ...env, NODE_OPTIONS: `--import=${IO_HOOK}`, BENCH_IO_DIR: ioDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) return reject(new Error(`${command}: exit ${code}`));
      // `times`: the shell's own line, then its children's user and system times (e.g. 0m1.234s).
      const seconds = (text: string): number => {
        const match = /(\d+)m([\d.]+)s/.exec(text);
        return match === null ? 0 : Number(match[1]) * 60 + Number(match[2]);
      };
      const [user = '', system = ''] = (out.trim().split('\n').pop() ?? '').split(' ');
      let readBytes = 0;
      for (const name of readdirSync(ioDir)) {
        const rchar = /rchar: (\d+)/.exec(readFileSync(join(ioDir, name), 'utf8'));
        readBytes += Number(rchar?.[1] ?? 0);
      }
      resolve({ ms, cpuMs: (seconds(user) + seconds(system)) * 1000, readBytes });
    });
  });
}

const cli = 'node dist/cli.js scan -q -f ndjson';
const db = join(dir, 'files.db');
const manifest = join(dir, 'manifest.json');
// Day one: the inventory and the manifest are made (every file read, looked up once).
await run(`${cli} --inventory ${db} ${tree}`);
await run(`node bench/inventory/manifest-recheck.mjs ${manifest} ${tree}`);

const contenders: Record<string, () => Promise<Figure>> = {
  'find (stat floor)': () => run(`find ${tree} -type f -printf '%s %T@ %i %p\\n'`),
  'scan --inventory': () => run(`${cli} --inventory ${db} ${tree}`),
  'scan --inventory --changes-only': () => run(`${cli} --inventory ${db} --changes-only ${tree}`),
  // Another build's CLI (BENCH_BEFORE_DIST: its dist/ folder) in the same rounds, on the same inventory.
  ...(BEFORE_DIST === undefined
    ? {}
    : {
        'scan --inventory (before)': () => run(`${cli.replace('dist/', `${BEFORE_DIST}/`)} --inventory ${db} ${tree}`),
      }),
  'manifest script': () => run(`node bench/inventory/manifest-recheck.mjs ${manifest} ${tree}`),
  // Floors of a Node process: only the walk with a stat per file, only the inventory's rows read back.
  'node: walk + stat only': () => run(`node bench/inventory/floor-walk.mjs ${tree}`),
  'node: rows only': () => run(`node bench/inventory/floor-rows.mjs ${db}`),
  ...(FULL_RESCAN ? { 'full rescan (scan)': () => run(`${cli} ${tree}`) } : {}),
};
const figures = await interleave(ROUNDS, contenders);
await sandbox.close();
rmSync(dir, { recursive: true, force: true });

const floor = summarize(
  (figures['find (stat floor)'] ?? []).map((figure) => figure.ms),
  1,
);
const rows: Record<string, { wallMs: Summary; cpuMs: Summary; readMiB: Summary; timesFind: number }> = {};
for (const [name, runs] of Object.entries(figures)) {
  const wallMs = summarize(
    runs.map((figure) => figure.ms),
    1,
  );
  rows[name] = {
    wallMs,
    cpuMs: summarize(
      runs.map((figure) => figure.cpuMs),
      0,
    ),
    readMiB: summarize(
      runs.map((figure) => figure.readBytes / 2 ** 20),
      1,
    ),
    timesFind: Number((wallMs.median / floor.median).toFixed(2)),
  };
}
console.log(`inventory re-check, ${FILES} files, nothing changed, ${ROUNDS} round(s), Node ${process.versions.node}`);
for (const [name, row] of Object.entries(rows)) {
  const span = (summary: Summary): string => `${summary.median} (${summary.min}–${summary.max})`;
  console.log(
    `  ${name.padEnd(32)} wall ms ${span(row.wallMs).padEnd(26)} cpu ms ${span(row.cpuMs).padEnd(22)} read MiB ${span(row.readMiB).padEnd(20)} ${row.timesFind}x find`,
  );
}
