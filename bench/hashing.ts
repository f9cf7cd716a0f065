/**
 * Hashing and `scan` speed against the tools a careful user would reach for.
 *   npm run bench:hashing            # 1 GiB file, 20 000 small files, 5 rounds
 *   npm run bench:hashing -- --quick # 64 MiB, 2 000 files, 2 rounds (smoke)
 *
 * Every contender runs as its own process, timed by GNU time (wall, user and
 * system CPU), so node's start-up is counted as openssl's and sha256sum's
 * is. Rounds are interleaved (each round runs every contender once, in a
 * rotating order) and reported as median with min–max. Inputs are written
 * under bench/.tmp/hashing and removed at the end. The machine may be shared:
 * read the spread before the medians.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomFillSync } from 'node:crypto';
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../src/sandbox/index.js';

const QUICK = process.argv.includes('--quick');
const ROUNDS = QUICK ? 2 : 5;
const BIG_BYTES = (QUICK ? 64 : 1024) * 1024 * 1024;
const SMALL_FILES = QUICK ? 2_000 : 20_000;
/** A folder where hashing, not lookups, is the slower stage: 4 MiB files. */
const LARGE_FILES = QUICK ? 16 : 128;
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WORK = join(ROOT, 'bench/.tmp/hashing');
const DIST = join(ROOT, 'dist/index.js');
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

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

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
      `  ${row.name.padEnd(34)} ${row.wall.toFixed(2).padStart(6)} [${row.min.toFixed(2)}–${row.max.toFixed(2)}]  CPU ${row.cpu.toFixed(2)}`,
    );
  }
  return Object.fromEntries(rows.map((row) => [row.name, row]));
}

execFileSync('sh', ['-c', 'command -v openssl && command -v sha256sum'], { stdio: 'ignore' });
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, node ${process.version}; shared machines are noisy`,
);
prepare();
const sandbox = await startSandbox();
try {
  const big = join(WORK, 'big.bin');
  const small = join(WORK, 'small');
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
  const hashAlone = (dir: string, count: number): [string, string[]] =>
    node(`import { readdirSync } from 'node:fs'; import { hashFiles } from ${JSON.stringify(DIST)};
    const dir = ${JSON.stringify(dir)}; let n = 0;
    for await (const f of hashFiles(readdirSync(dir).map((name) => dir + '/' + name))) if (f.error === undefined) n++;
    if (n !== ${count}) process.exit(1);`);
  const env = { ...process.env, HASHSCAN_BASE_URL: sandbox.hashScanUrl, HASHSCAN_API_KEY: sandbox.apiKey };
  const smallResults = await compare(`${SMALL_FILES} files of 1–16 KiB, SHA-256`, {
    'xargs openssl dgst -sha256': sh(
      `cd ${small} && find . -type f -print0 | xargs -0 openssl dgst -sha256 >/dev/null`,
    ),
    'xargs sha256sum': sh(`cd ${small} && find . -type f -print0 | xargs -0 sha256sum >/dev/null`),
    'hashFiles (this package)': hashAlone(small, SMALL_FILES),
    'hashscan-sms scan (loopback sandbox)': [process.execPath, [CLI, 'scan', '-q', '-f', 'ndjson', small], env],
  });
  const large = join(WORK, 'large');
  const largeResults = await compare(`${LARGE_FILES} files of 4 MiB (hashing is the slower stage), SHA-256`, {
    'xargs sha256sum': sh(`cd ${large} && find . -type f -print0 | xargs -0 sha256sum >/dev/null`),
    'hashFiles (this package)': hashAlone(large, LARGE_FILES),
    'hashscan-sms scan (loopback sandbox)': [process.execPath, [CLI, 'scan', '-q', '-f', 'ndjson', large], env],
  });
  const ratio = (a: number | undefined, b: number | undefined): string => (a && b ? (a / b).toFixed(2) : '?');
  console.log('\nTargets');
  console.log(
    `  hashFile vs openssl (big file):    openssl / hashFile = ${ratio(bigResults['openssl dgst -sha256']?.wall, bigResults['hashFile (this package)']?.wall)}× (target ≥ 0.9)`,
  );
  console.log(
    `  hashFiles vs xargs sha256sum:      sha256sum / hashFiles = ${ratio(smallResults['xargs sha256sum']?.wall, smallResults['hashFiles (this package)']?.wall)}× (target > 1)`,
  );
  console.log(
    `  scan vs hashing alone:             scan / hashFiles = ${ratio(smallResults['hashscan-sms scan (loopback sandbox)']?.wall, smallResults['hashFiles (this package)']?.wall)}× (target ≤ 1.2)`,
  );
  console.log(
    `  scan vs hashing alone, 4 MiB files: scan / hashFiles = ${ratio(largeResults['hashscan-sms scan (loopback sandbox)']?.wall, largeResults['hashFiles (this package)']?.wall)}× (target ≤ 1.2)`,
  );
  console.log(`  lookups answered by the sandbox during the scan rounds: ${sandbox.requests.length}`);
} finally {
  await sandbox.close();
  rmSync(WORK, { recursive: true, force: true });
}
