/**
 * Object storage: `hashscan-sms scan s3://bucket/` against what an operator's glue does
 * (bench/s3/download-and-hash.mjs: list, GetObject and `hashStream` every object, then
 * `scanMany`), each a process of its own, interleaved round by round, on a bucket of N objects
 * of S bytes in s3rver (a real S3-protocol server on loopback, started here). s3rver keeps an
 * MD5 ETag for each object uploaded in one part, so the scan looks them up without downloading
 * (`etag-md5`); the glue downloads every byte. A third contestant is the scan's day two with
 * `--inventory` (an inventory filled by one run before the rounds, nothing changed since: no
 * HeadObject, no lookup). All look up against the same sandbox service, served from this process.
 *
 * Wall time from spawn to exit, CPU (user + system) of the process (bench/cli/cpu-report.cjs),
 * objects and bytes downloaded (the scan's coverage line; the glue's count). Results go to
 * /dev/null.
 *
 *   npm run build && node --import tsx bench/s3-digests.ts [--objects N] [--size BYTES] [--rounds N] [--quick]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { startSandbox } from '../src/sandbox/index.js';
import { s3rverClient, startS3rver } from '../test/helpers/s3rver.js';
import { numberOption, runContestant } from './lib/contestant.js';
import { interleave } from './lib/interleave.js';
import { machine } from './lib/machine.js';
import { ratio, summarize } from './lib/stats.js';

/** `--quick`: proves the bench runs (CI); a few small objects, one round, no results file. */
const QUICK = process.argv.includes('--quick');
const OBJECTS = numberOption('objects', QUICK ? 40 : 2000);
const SIZE = numberOption('size', QUICK ? 4096 : 64 * 1024);
const ROUNDS = numberOption('rounds', QUICK ? 1 : 5);
const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 's3-digests-'));

interface Run {
  readonly ms: number;
  readonly cpuUs: number;
  readonly objects: number;
  readonly bytes: number;
}

/** One contestant run, and the objects and bytes it downloaded (the scan's coverage line; the glue's count). */
async function run(command: readonly string[], env: Record<string, string>): Promise<Run> {
  const { ms, cpuUs, stderr } = await runContestant(command, { root, scratch: dir, env });
  const coverage =
    /\d+ objects: \d+ checksum-sha256, \d+ etag-md5, (\d+) download, \d+ failed(?:; \d+ from the inventory[^;]*)?; (\d+) bytes/.exec(
      stderr,
    );
  const glue = /downloaded (\d+) objects, (\d+) bytes/.exec(stderr);
  const counts = coverage ?? glue;
  return { ms, cpuUs, objects: Number(counts?.[1]), bytes: Number(counts?.[2]) };
}

const server = await startS3rver(['bench']);
const sandbox = await startSandbox();
try {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const s3 = s3rverClient(server);
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
  const scan = ['dist/cli.js', 'scan', '-f', 'ndjson', '--endpoint-url', server.endpoint];
  const inventory = ['--inventory', join(dir, 'inventory.db')];
  // Day one, before the rounds: every object recorded with its digest and answer.
  await run([...scan, ...inventory, 's3://bench/'], env);
  const figures = await interleave(ROUNDS, {
    scan: () => run([...scan, 's3://bench/'], env),
    scanInventoryDayTwo: () => run([...scan, ...inventory, 's3://bench/'], env),
    glue: () => run(['bench/s3/download-and-hash.mjs', server.endpoint, 'bench'], env),
  });
  const view = (runs: readonly Run[]) => ({
    wallMs: summarize(
      runs.map((r) => r.ms),
      0,
    ),
    cpuMs: summarize(
      runs.map((r) => r.cpuUs / 1000),
      0,
    ),
    cpuUsPerObject: summarize(
      runs.map((r) => r.cpuUs / OBJECTS),
      0,
    ),
    objectsDownloaded: summarize(
      runs.map((r) => r.objects),
      0,
    ),
    bytesDownloaded: summarize(
      runs.map((r) => r.bytes),
      0,
    ),
  });
  const results = {
    machine: machine(),
    objects: OBJECTS,
    objectBytes: SIZE,
    rounds: ROUNDS,
    scan: view(figures.scan),
    glue: view(figures.glue),
    scanInventoryDayTwo: view(figures.scanInventoryDayTwo),
    wallRatioScanOverGlue: ratio(
      figures.scan.map((r) => r.ms),
      figures.glue.map((r) => r.ms),
    ),
    wallRatioDayTwoOverScan: ratio(
      figures.scanInventoryDayTwo.map((r) => r.ms),
      figures.scan.map((r) => r.ms),
    ),
  };
  console.log(JSON.stringify(results, null, 2));
  if (!QUICK) writeFileSync(join(root, 'bench/results.s3-digests.json'), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  await sandbox.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
