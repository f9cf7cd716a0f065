import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Loopback, startLoopback } from '../helpers/loopback.js';
import { parseNdjson, runCli } from './run-cli.js';

const hashOf = (n: number): string => createHash('sha256').update(`ordered ${n}`).digest('hex');
const NOT_DETECTED = JSON.stringify({ status: 'success', is_virus: false, message: 'clean' });

let dir: string;
let service: Loopback;
let env: Record<string, string>;
const LINES = 600;
/** The first line's hash is answered last: once every other line of the run has been answered (or after 8 s). */
const slow = hashOf(0);
/** Lines other than the first answered since the first line was last answered (one run's worth). */
let othersAnswered = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-order-'));
  service = await startLoopback((request, response) => {
    const hash = new URL(request.url ?? '/', 'http://x').searchParams.get('hash');
    const answer = () => response.writeHead(200, { 'content-type': 'application/json' }).end(NOT_DETECTED);
    if (hash === slow) {
      // No clock decides the order: a loaded machine may take longer than any fixed delay to answer the rest.
      const started = Date.now();
      const poll = setInterval(() => {
        if (othersAnswered < LINES - 1 && Date.now() - started < 8_000) return;
        clearInterval(poll);
        othersAnswered = 0;
        answer();
      }, 5);
    } else {
      setTimeout(
        () => {
          othersAnswered += 1;
          answer();
        },
        Number.parseInt(hash?.slice(0, 2) ?? '0', 16) % 20,
      );
    }
  });
  env = { HASHSCAN_BASE_URL: service.url, HASHSCAN_API_KEY: 'key' };
  await writeFile(join(dir, 'list.txt'), `${Array.from({ length: LINES }, (_, i) => hashOf(i)).join('\n')}\n`);
});

afterAll(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

const lineNumbers = (stdout: string): number[] => parseNdjson(stdout).map((row) => Number(row.line));
const inInputOrder = Array.from({ length: LINES }, (_, i) => i + 1);

describe('lookup --order', { timeout: 60_000 }, () => {
  it('prints results in input order by default, on one thread and on several, however late a lookup ends', async () => {
    for (const extra of [[], ['--concurrency', '64'], ['--workers', '3']]) {
      const run = await runCli(['lookup', '-f', 'ndjson', '--input', join(dir, 'list.txt'), ...extra], { env });
      expect(run.code).toBe(0);
      expect(lineNumbers(run.stdout)).toEqual(inInputOrder);
    }
  });

  it('prints each result as it ends with --order completion; a bad --order is a usage error', async () => {
    const input = join(dir, 'list.txt');
    const run = await runCli(
      ['lookup', '-f', 'ndjson', '--order', 'completion', '--concurrency', '64', '--input', input],
      {
        env,
      },
    );
    expect(run.code).toBe(0);
    const lines = lineNumbers(run.stdout);
    expect([...lines].sort((a, b) => a - b)).toEqual(inInputOrder);
    expect(lines.at(-1)).toBe(1); // the late first line comes out last
    expect((await runCli(['lookup', '--order', 'random', '--input', input], { env })).code).toBe(64);
    const queued = await runCli(
      ['lookup', '--queue', 'redis://127.0.0.1:1', '--order', 'completion', '--input', input],
      {
        env,
      },
    );
    expect(queued.code).toBe(64);
    expect(queued.stderr).toContain('--queue prints in input order');
  });
});
