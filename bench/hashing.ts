/**
 * Hashing and `scan` speed against the tools a careful user would reach for.
 *   npm run bench:hashing            # 1 GiB file, 20 000 small files, 5 rounds
 *   npm run bench:hashing -- --quick # 64 MiB, 2 000 files, 2 rounds (smoke)
 *
 * Every contender runs as its own process, timed by GNU time (wall, user and
 * system CPU), so node's start-up is counted as openssl's and sha256sum's
 * is. Rounds are interleaved (each round runs every contender once, in a
 * rotating order) and reported as median with min–max. Inputs are written
 * under bench/.tmp/hashing and removed at the end, so every round reads from
 * a warm page cache alike. The machine may be shared: read the spread and the
 * load averages printed before and after.
 *
 * Fairness: every contender's stdout is /dev/null, and each writes a line per
 * file as `sha256sum` does (`hashFiles` contenders print `digest  path`, the
 * CLI its NDJSON). `hashFiles` runs twice: through `hashscan-sms/hashing`
 * (the digests alone, what a hashing script imports) and through the package
 * root (which loads the clients' dependencies too).
 *
 * The lookup side: the sandbox serves from this benchmark's own process, a
 * process apart from the CLI (on two cores, each gets one, as a remote
 * service would be elsewhere), never the CLI's `--sandbox` (which would share
 * the CLI's event loop). "lookups alone" is the floor of any scan: the same
 * number of unique lookups from a minimal undici client (16 connections, no
 * hashing, no SDK), with its CPU per lookup.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomFillSync } from 'node:crypto';
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../src/sandbox/index.js';
import { summarize } from './lib/stats.js';

const QUICK = process.argv.includes('--quick');
const ROUNDS = QUICK ? 2 : 5;
const BIG_BYTES = (QUICK ? 64 : 1024) * 1024 * 1024;
const SMALL_FILES = QUICK ? 2_000 : 20_000;
/** A folder where hashing, not lookups, is the slower stage: 4 MiB files. */
const LARGE_FILES = QUICK ? 16 : 128;
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WORK = join(ROOT, 'bench/.tmp/hashing');
const DIST = join(ROOT, 'dist/index.js');
const HASHING = join(ROOT, 'dist/hashing.js');
const UNDICI = join(ROOT, 'node_modules/undici/index.js');
const CLI = join(ROOT, 'dist/cli.js');

interface Sample {
  readonly wall: number;
  readonly cpu: number;
}

/** Runs a command under GNU time; resolves wall and CPU (user + system) seconds. */
function timed(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', '%e %U %S', command, ...args], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
    });
    child.once('close', (code) => {
      const last = err.trim().split('\n').at(-1) ?? '';
      const [wall, user, sys] = last.split(' ').map(Number);
      // scan exits 0 (all allowed); anything else is a broken run, not a timing.
      if (code !== 0 || wall === undefined || user === undefined || sys === undefined) {
        reject(new Error(`${command} ${args.join(' ')} failed (${code}): ${err}`));
      } else resolve({ wall, cpu: user + sys });
    });
  });
}

function sh(script: string): [string, string[]] {
  return ['sh', ['-c', script]];
}

const node = (code: string): [string, string[]] => [process.execPath, ['--input-type=module', '-e', code]];

function prepare(): void {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(join(WORK, 'small'), { recursive: true });
  mkdirSync(join(WORK, 'large'), { recursive: true });
  for (let i = 0; i < LARGE_FILES; i += 1) writeFileSync(join(WORK, 'large', `f${i}`), randomBytes(4 * 1024 * 1024));
  const fd = openSync(join(WORK, 'big.bin'), 'w');
  const chunk = Buffer.allocUnsafe(8 * 1024 * 1024);
  for (let written = 0; written < BIG_BYTES; written += chunk.length) writeSync(fd, randomFillSync(chunk));
  closeSync(fd);
  // 1 to 16 KiB each, like a folder of uploads, documents and sources.
  for (let i = 0; i < SMALL_FILES; i += 1)
    writeFileSync(join(WORK, 'small', `f${i}`), randomBytes(1 + ((i * 7919) % 16_384)));
}

const median = (values: readonly number[]): number => summarize(values, 6).median;

async function compare(title: string, contenders: Record<string, [string, string[], NodeJS.ProcessEnv?]>) {
  const names = Object.keys(contenders);
  const samples = new Map<string, Sample[]>(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    // Rotate the order each round so no contender always runs first (cold cache) or last.
    const order = names.map((_, i) => names[(i + round) % names.length] as string);
    for (const name of order) {
      const [command, args, env] = contenders[name] as [string, string[], NodeJS.ProcessEnv?];
      samples.get(name)?.push(await timed(command, args, env));
    }
  }
  console.log(`\n${title} (${ROUNDS} interleaved rounds; seconds, median [min–max]; CPU = user+sys)`);
  const rows = names.map((name) => {
    const list = samples.get(name) ?? [];
    const walls = list.map((s) => s.wall);
    return {
      name,
      wall: median(walls),
      min: Math.min(...walls),
      max: Math.max(...walls),
      cpu: median(list.map((s) => s.cpu)),
    };
  });
  for (const row of rows) {
    console.log(
      `  ${row.name.padEnd(38)} ${row.wall.toFixed(2).padStart(6)} [${row.min.toFixed(2)}–${row.max.toFixed(2)}]  CPU ${row.cpu.toFixed(2)}`,
    );
  }
  return Object.fromEntries(rows.map((row) => [row.name, row]));
}

const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
execFileSync('sh', ['-c', 'command -v openssl && command -v sha256sum'], { stdio: 'ignore' });
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, node ${process.version}; load average ${load()}; shared machines are noisy`,
);
prepare();
const sandbox = await startSandbox();
try {
  const big = join(WORK, 'big.bin');
  const small = join(WORK, 'small');
  // Start-up counts in every CLI figure: each command is loaded only when it runs.
  await compare('Start-up: the command and the entries, a fresh process each', {
    'node -e 0': [process.execPath, ['-e', '0']],
    'hashscan-sms --version': [process.execPath, [CLI, '--version']],
    'hashscan-sms scan --help': [process.execPath, [CLI, 'scan', '--help']],
    "import 'hashscan-sms/hashing'": node(`await import(${JSON.stringify(HASHING)});`),
    "import 'hashscan-sms' (root)": node(`await import(${JSON.stringify(DIST)});`),
  });
  const bigResults = await compare(`${BIG_BYTES / 1024 / 1024} MiB file, SHA-256`, {
    'openssl dgst -sha256': ['openssl', ['dgst', '-sha256', big]],
    sha256sum: ['sha256sum', [big]],
    'hashFile (this package)': node(
      `import { hashFile } from ${JSON.stringify(DIST)}; await hashFile(${JSON.stringify(big)});`,
    ),
    'node -e 0 (start-up alone)': [process.execPath, ['-e', '0']],
    'createReadStream 64 KiB (before)': node(
      `import { createHash } from 'node:crypto'; import { createReadStream } from 'node:fs'; import { pipeline } from 'node:stream/promises';
       const h = createHash('sha256'); await pipeline(createReadStream(${JSON.stringify(big)}), h); h.digest('hex');`,
    ),
  });
  /** `hashFiles` over a folder, printing `digest  path` per file as sha256sum does (one write per 64 KiB). */
  const hashAlone = (dir: string, count: number, entry = HASHING): [string, string[]] =>
    node(`import { readdirSync, writeSync } from 'node:fs'; import { hashFiles } from ${JSON.stringify(entry)};
    const dir = ${JSON.stringify(dir)}; let n = 0; let out = '';
    for await (const f of hashFiles(readdirSync(dir).map((name) => dir + '/' + name))) {
      if (f.error !== undefined) continue;
      n++; out += f.digests.sha256 + '  ' + f.path + '\\n';
      if (out.length > 65536) { writeSync(1, out); out = ''; }
    }
    writeSync(1, out);
    if (n !== ${count}) process.exit(1);`);
  /** The same number of unique lookups from a minimal undici client: no hashing, no SDK, 16 in flight. */
  const lookupsAlone = (count: number): [string, string[]] =>
    node(`import { createRequire } from 'node:module';
    const { Agent } = createRequire(import.meta.url)(${JSON.stringify(UNDICI)});
    const agent = new Agent({ connections: 16 }); const origin = ${JSON.stringify(sandbox.hashScanUrl)};
    const key = ${JSON.stringify(sandbox.apiKey)}; let next = 0;
    const worker = async () => { while (next < ${count}) {
      const hash = (next++).toString(16).padStart(64, 'f');
      const res = await agent.request({ origin, path: '/hash_scan?api_key=' + key + '&hash=' + hash, method: 'GET' });
      const body = await res.body.text(); if (res.statusCode !== 200 || !body.includes('success')) process.exit(1);
    } };
    await Promise.all(Array.from({ length: 16 }, worker)); await agent.close();`);
  const env = { ...process.env, HASHSCAN_BASE_URL: sandbox.hashScanUrl, HASHSCAN_API_KEY: sandbox.apiKey };
  const smallResults = await compare(`${SMALL_FILES} files of 1–16 KiB, SHA-256`, {
    'xargs openssl dgst -sha256': sh(
      `cd ${small} && find . -type f -print0 | xargs -0 openssl dgst -sha256 >/dev/null`,
    ),
    'xargs sha256sum': sh(`cd ${small} && find . -type f -print0 | xargs -0 sha256sum >/dev/null`),
    'hashFiles (hashscan-sms/hashing)': hashAlone(small, SMALL_FILES),
    'hashFiles (package root)': hashAlone(small, SMALL_FILES, DIST),
    'hashscan-sms scan (loopback sandbox)': [process.execPath, [CLI, 'scan', '-q', '-f', 'ndjson', small], env],
    'lookups alone (minimal undici)': lookupsAlone(SMALL_FILES),
  });
  const large = join(WORK, 'large');
  const largeResults = await compare(`${LARGE_FILES} files of 4 MiB (hashing is the slower stage), SHA-256`, {
    'xargs sha256sum': sh(`cd ${large} && find . -type f -print0 | xargs -0 sha256sum >/dev/null`),
    'hashFiles (hashscan-sms/hashing)': hashAlone(large, LARGE_FILES),
    'hashscan-sms scan (loopback sandbox)': [process.execPath, [CLI, 'scan', '-q', '-f', 'ndjson', large], env],
  });
  const ratio = (a: number | undefined, b: number | undefined): string => (a && b ? (a / b).toFixed(2) : '?');
  const perLookup = (cpu: number | undefined): string =>
    cpu === undefined ? '?' : ((cpu / SMALL_FILES) * 1e6).toFixed(0);
  console.log('\nTargets');
  console.log(
    `  hashFile vs openssl (big file):    openssl / hashFile = ${ratio(bigResults['openssl dgst -sha256']?.wall, bigResults['hashFile (this package)']?.wall)}× (target ≥ 0.9)`,
  );
  const hashing = smallResults['hashFiles (hashscan-sms/hashing)'];
  const scan = smallResults['hashscan-sms scan (loopback sandbox)'];
  const floor = smallResults['lookups alone (minimal undici)'];
  console.log(
    `  hashFiles vs xargs sha256sum:      sha256sum / hashFiles = ${ratio(smallResults['xargs sha256sum']?.wall, hashing?.wall)}× (target > 1); through the package root ${ratio(smallResults['xargs sha256sum']?.wall, smallResults['hashFiles (package root)']?.wall)}×`,
  );
  console.log(
    `  scan vs hashing alone:             scan / hashFiles = ${ratio(scan?.wall, hashing?.wall)}× (target ≤ 1.2)`,
  );
  console.log(
    `  floor: lookups alone / hashFiles = ${ratio(floor?.wall, hashing?.wall)}×; CPU per lookup: minimal client ${perLookup(floor?.cpu)} µs, scan ${perLookup(scan !== undefined && hashing !== undefined ? scan.cpu - hashing.cpu : undefined)} µs beyond hashing`,
  );
  console.log(
    `  scan vs hashing alone, 4 MiB files: scan / hashFiles = ${ratio(largeResults['hashscan-sms scan (loopback sandbox)']?.wall, largeResults['hashFiles (hashscan-sms/hashing)']?.wall)}× (target ≤ 1.2)`,
  );
  console.log(`  lookups answered by the sandbox during the rounds: ${sandbox.requests.length}`);
  console.log(`load average at the end: ${load()}`);
} finally {
  await sandbox.close();
  rmSync(WORK, { recursive: true, force: true });
}
