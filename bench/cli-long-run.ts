/**
 * One long `lookup` run, for "ten million lookups at 20 ms": a list of N
 * distinct SHA-256 lines against the loopback service answering after
 * 20 ms, the CLI with its defaults (adaptive limit) or the flags given, the
 * service on the same machine. Wall time, lookups a second, CPU (user +
 * system) per lookup and the CLI's peak RSS; results to /dev/null as NDJSON.
 *
 *   npm run build && node --import tsx bench/cli-long-run.ts [--lines N] [-- extra lookup flags]
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machine } from './lib/machine.js';
import { startServer } from './lib/server.js';

const args = process.argv.slice(2);
const split = args.indexOf('--');
const own = split === -1 ? args : args.slice(0, split);
const extra = split === -1 ? [] : args.slice(split + 1);
const at = own.indexOf('--lines');
const LINES = at === -1 ? 10_000_000 : Number(own[at + 1]);
const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cli-long-'));

async function writeList(path: string, count: number): Promise<void> {
  const out = createWriteStream(path);
  let chunk = '';
  for (let i = 0; i < count; i += 1) {
    chunk += `${createHash('sha256').update(`long run ${i}`).digest('hex')}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      chunk = '';
    }
  }
  out.end(chunk);
  await new Promise<void>((resolve) => out.once('finish', () => resolve()));
}

const list = join(dir, 'hashes.txt');
await writeList(list, LINES);
const server = await startServer(20);
const cpuFile = join(dir, 'cpu');
const started = performance.now();
const child = spawn(
  process.execPath,
  [
    '--require',
    join(root, 'bench/cli/cpu-report.cjs'),
    'dist/cli.js',
    'lookup',
    '-q',
    '-f',
    'ndjson',
    '--input',
    list,
    ...extra,
  ],
  {
    cwd: root,
    env: { ...process.env, HASHSCAN_BASE_URL: server.url, HASHSCAN_API_KEY: server.apiKey, BENCH_CPU_FILE: cpuFile },
    stdio: ['ignore', openSync('/dev/null', 'w'), 'inherit'],
  },
);
const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
const seconds = (performance.now() - started) / 1000;
const [cpuUs, maxRssKiB] = readFileSync(cpuFile, 'utf8').split(' ').map(Number) as [number, number];
const answered = await server.lookups();
await server.close();
rmSync(dir, { recursive: true, force: true });
console.log(
  JSON.stringify(
    {
      machine: machine(),
      lines: LINES,
      flags: extra,
      exit: code,
      answered,
      seconds: Number(seconds.toFixed(1)),
      lookupsPerSecond: Math.round(LINES / seconds),
      cpuUsPerLookup: Number((cpuUs / LINES).toFixed(1)),
      peakRssMiB: Math.round(maxRssKiB / 1024),
    },
    null,
    2,
  ),
);
