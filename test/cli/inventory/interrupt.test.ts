/**
 * SIGTERM in the middle of `scan --inventory`, then a rerun: nothing that
 * was answered and printed is asked again, and no file is lost (each is
 * `new` in exactly one of the two outputs).
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { CLI_PATH } from '../build-cli.js';
import { cliEnv, collect, parseNdjson, runCli } from '../run-cli.js';

const COUNT = 1500;
let dir: string;
let sandbox: Sandbox;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-inventory-stop-'));
  for (let folder = 0; folder < 15; folder += 1) {
    await mkdir(join(dir, 'tree', `d${folder}`), { recursive: true });
    await Promise.all(
      Array.from({ length: COUNT / 15 }, (_, i) =>
        writeFile(join(dir, 'tree', `d${folder}`, `f${i}`), `file ${folder} ${i}`),
      ),
    );
  }
  sandbox = await startSandbox({ recordLimit: 10 * COUNT });
});

afterAll(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

it('a run stopped by SIGTERM, then run again: every file reported once as new, none asked twice', async () => {
  const env = { HASHSCAN_BASE_URL: sandbox.hashScanUrl, HASHSCAN_API_KEY: sandbox.apiKey };
  const args = ['scan', '--inventory', join(dir, 'files.db'), '-f', 'ndjson', '--concurrency', '4', join(dir, 'tree')];
  const out = join(dir, 'first.ndjson');
  const fd = openSync(out, 'w');
  const child = spawn(process.execPath, [CLI_PATH, ...args], { env: cliEnv(env), stdio: ['ignore', fd, 'pipe'] });
  closeSync(fd);
  const poll = setInterval(() => {
    if (readFileSync(out).toString().split('\n').length > 300) {
      clearInterval(poll);
      child.kill('SIGTERM');
    }
  }, 5);
  const stopped = await collect(child);
  clearInterval(poll);
  expect(stopped.code).toBe(143);
  const first = parseNdjson(readFileSync(out, 'utf8'));
  expect(first.length).toBeGreaterThan(0);
  expect(first.length).toBeLessThan(COUNT);
  const askedBefore = sandbox.requests.length;

  const rerun = await runCli(args, { env });
  expect(rerun.code).toBe(0);
  const second = parseNdjson(rerun.stdout);
  const hashOf = (row: Record<string, unknown>): string => String(row.sha256);
  const printedFirst = new Set(first.map(hashOf));
  const newInSecond = second.filter((row) => row.change === 'new').map(hashOf);
  // Every file once as new, over the two runs.
  expect(new Set([...printedFirst, ...newInSecond]).size).toBe(COUNT);
  expect(printedFirst.size + newInSecond.length).toBe(COUNT);
  expect(second).toHaveLength(COUNT);
  // What the first run printed is unchanged in the second, and was not asked again.
  const askedAgain = sandbox.requests.slice(askedBefore).map((request) => String(request.params.hash));
  expect(askedAgain.filter((hash) => printedFirst.has(hash))).toEqual([]);
  expect(new Set(askedAgain)).toEqual(new Set(newInSecond));
});
