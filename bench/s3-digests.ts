/**
 * Object storage: `hashscan-sms scan s3://bucket/` against what an operator's glue does
 * (bench/s3/download-and-hash.mjs: list, GetObject and `hashStream` every object, then
 * `scanMany`), each a process of its own, interleaved round by round, on a bucket of N objects
 * of S bytes in s3rver (a real S3-protocol server on loopback, started here). s3rver keeps an
 * MD5 ETag for each object uploaded in one part, so the scan looks them up without downloading
 * (`etag-md5`); the glue downloads every byte. Both look up against the same sandbox service,
 * served from this process.
 *
 * Wall time from spawn to exit, CPU (user + system) of the process (bench/cli/cpu-report.cjs),
 * objects and bytes downloaded (the scan's coverage line; the glue's count). Results go to
 * /dev/null.
 *
 *   npm run build && node --import tsx bench/s3-digests.ts [--objects N] [--size BYTES] [--rounds N] [--quick]
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startSandbox } from '../src/sandbox/index.js';
import { startS3rver } from '../test/helpers/s3rver.js';
import { interleave } from './lib/interleave.js';
import { machine } from './lib/machine.js';
import { ratio, summarize } from './lib/stats.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(args[at + 1]);
};
/** `--quick`: proves the bench runs (CI); a few small objects, one round, no results file. */
const QUICK = args.includes('--quick');
const OBJECTS = option('objects', QUICK ? 40 : 2000);
const SIZE = option('size', QUICK ? 4096 : 64 * 1024);
const ROUNDS = option('rounds', QUICK ? 1 : 5);
const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 's3-digests-'));

interface Run {
  readonly ms: number;
  readonly cpuUs: number;
  readonly objects: number;
  readonly bytes: number;
}

/** One contestant run: a process of its own, stdout to /dev/null, stderr read for what it downloaded. */
function run(command: readonly string[], env: Record<string, string>, allowed: readonly number[]): Promise<Run> {
  const cpuFile = join(dir, 'cpu');
  const out = openSync('/dev/null', 'w');
  const started = performance.now();
  const child = spawn(process.execPath, ['--require', join(root, 'bench/cli/cpu-report.cjs'), ...command], {
    cwd: root,
    env: { ...process.env, ...env, BENCH_CPU_FILE: cpuFile },
    stdio: ['ignore', out, 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('close', (code) => {
      const ms = performance.now() - started;
      if (code === null || !allowed.includes(code)) {
        reject(new Error(`${command.join(' ')} exited ${code}: ${stderr}`));
        return;
      }
      const coverage = /(\d+) objects: \d+ checksum-sha256, \d+ etag-md5, (\d+) download, \d+ failed; (\d+) bytes/.exec(
        stderr,
      );
      const glue = /downloaded (\d+) objects, (\d+) bytes/.exec(stderr);
      const [objects, bytes] =
        coverage !== null ? [Number(coverage[2]), Number(coverage[3])] : [Number(glue?.[1]), Number(glue?.[2])];
      resolve({ ms, cpuUs: Number(readFileSync(cpuFile, 'utf8').split(' ')[0]), objects, bytes });
    });
  });
}

const server = await startS3rver(['bench']);
const sandbox = await startSandbox();
try {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const s3 = new S3Client({
    endpoint: server.endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  let next = 0;
  const put = async (): Promise<void> => {
    while (next < OBJECTS) {
      const i = next++;
      await s3.send(new PutObjectCommand({ Bucket: 'bench', Key: `objects/${i}.bin`, Body: randomBytes(SIZE) }));
    }
  };
  await Promise.all(Array.from({ length: 16 }, put));
  s3.destroy();

  const env = {
    ...server.env,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    HASHSCAN_BASE_URL: sandbox.hashScanUrl,
    HASHSCAN_API_KEY: sandbox.apiKey,
  };
  const figures = await interleave(ROUNDS, {
    scan: () =>
      run(['dist/cli.js', 'scan', '-f', 'ndjson', '--endpoint-url', server.endpoint, 's3://bench/'], env, [0]),
    glue: () => run(['bench/s3/download-and-hash.mjs', server.endpoint, 'bench'], env, [0]),
  });
  const view = (runs: readonly Run[]) => ({
    wallMs: summarize(runs.map((r) => r.ms), 0),
    cpuMs: summarize(runs.map((r) => r.cpuUs / 1000), 0),
    cpuUsPerObject: summarize(runs.map((r) => r.cpuUs / OBJECTS), 0),
    objectsDownloaded: summarize(runs.map((r) => r.objects), 0),
    bytesDownloaded: summarize(runs.map((r) => r.bytes), 0),
  });
  const results = {
    machine: machine(),
    objects: OBJECTS,
    objectBytes: SIZE,
    rounds: ROUNDS,
    scan: view(figures.scan),
    glue: view(figures.glue),
    wallRatioScanOverGlue: ratio(
      figures.scan.map((r) => r.ms),
      figures.glue.map((r) => r.ms),
    ),
  };
  console.log(JSON.stringify(results, null, 2));
  if (!QUICK) writeFileSync(join(root, 'bench/results.s3-digests.json'), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  await sandbox.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
