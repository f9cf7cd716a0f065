/**
 * Ctrl-C (or SIGTERM) while answers flow quickly, through the real binary:
 * a clean 130/143 (never 1, no stack trace), and a state whose journal
 * covers exactly what was printed, so the rerun prints the rest once.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { CLI_PATH } from './build-cli.js';
import { cliEnv, collect, parseNdjson, runCli } from './run-cli.js';

const COUNT = 4000;
const hashOf = (n: number): string => createHash('sha256').update(`interrupt ${n}`).digest('hex');

let dir: string;
let sandbox: Sandbox;
let env: Record<string, string>;
let input: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-interrupt-'));
  sandbox = await startSandbox();
  env = { HASHSCAN_BASE_URL: sandbox.hashScanUrl, HASHSCAN_API_KEY: sandbox.apiKey };
  input = join(dir, 'hashes.txt');
  await writeFile(input, `${Array.from({ length: COUNT }, (_, i) => hashOf(i)).join('\n')}\n`);
});

afterAll(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

/** Where stdout goes, the signal, the status it must end with, and the lines printed before it is sent. */
const TIMINGS: readonly ['file' | 'pipe', NodeJS.Signals, number, number][] = [
  ['file', 'SIGINT', 130, 1],
  ['file', 'SIGINT', 130, 300],
  ['file', 'SIGTERM', 143, 1200],
  ['file', 'SIGINT', 130, 2500],
  ['pipe', 'SIGINT', 130, 200],
  ['pipe', 'SIGTERM', 143, 2000],
];

/** Runs `lookup` with stdout to a file (`> results.ndjson`) or a pipe read as it comes, and sends `signal` once `after` lines are out. */
async function interrupted(
  args: readonly string[],
  to: 'file' | 'pipe',
  signal: NodeJS.Signals,
  after: number,
): Promise<{ code: number | null; stdout: string; stderr: string; sent: boolean }> {
  const path = join(dir, `out-${to}-${signal}-${after}.ndjson`);
  const fd = to === 'file' ? openSync(path, 'w') : undefined;
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    env: cliEnv(env),
    stdio: ['ignore', fd ?? 'pipe', 'pipe'],
  });
  if (fd !== undefined) closeSync(fd);
  let sent = false;
  const lines = (): number => {
    if (to === 'pipe') return seen;
    let count = 0;
    for (const byte of readFileSync(path)) if (byte === 0x0a) count += 1;
    return count;
  };
  let seen = 0;
  child.stdout?.on('data', (chunk: Buffer) => {
    for (const byte of chunk) if (byte === 0x0a) seen += 1;
  });
  const poll = setInterval(() => {
    if (!sent && lines() >= after) {
      sent = true;
      child.kill(signal);
    }
  }, 5);
  const run = await collect(child);
  clearInterval(poll);
  return { ...run, stdout: to === 'file' ? readFileSync(path, 'utf8') : run.stdout, sent };
}

describe('interrupted while answers flow', { timeout: 120_000 }, () => {
  it.each(TIMINGS)(
    'stdout to a %s, %s: exits %i, and the rerun prints each line once',
    async (to, signal, status, after) => {
      const state = join(dir, `run-${to}-${signal}-${after}.state`);
      const args = ['lookup', '-f', 'ndjson', '--input', input, '--resume', state];
      const first = await interrupted(args, to, signal, after);
      expect(first.stderr).not.toMatch(/EBADF|\n\s+at |Error:/);
      // The signal may come after the last answer on a fast machine: then the run ended on its own.
      expect(first.sent && first.code !== 0 ? first.code : status).toBe(status);
      const rest = await runCli(args, { env });
      expect(rest.stderr).not.toMatch(/\n\s+at |Error:/);
      expect(rest.code).toBe(0);
      const printed = [...parseNdjson(first.stdout), ...parseNdjson(rest.stdout)].map((row) => Number(row.line));
      // Nothing printed twice, nothing lost.
      expect(printed.length).toBe(COUNT);
      expect(new Set(printed).size).toBe(COUNT);
    },
  );
});
