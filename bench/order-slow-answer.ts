/**
 * `lookup --order input` against `--order completion` when one answer is
 * slow: 100,000 distinct SHA-256 lines from a file, NDJSON to /dev/null,
 * against the loopback bench server (its own process) answering after
 * 20 ms, except line 10, whose every lookup is answered after 15 s (past the
 * default 10 s time-out: each attempt times out and is retried, the line
 * ends `TIMEOUT`). The two orders run interleaved, the order of the pair
 * swapped each round; wall time from spawn to exit, lines a second.
 *
 * `--cap S` stops a run after S seconds and reports the lines it printed by then
 * (a build that crawls would otherwise take hours); `--orders` picks the orders.
 *
 * Usage: npm run build && node --import tsx bench/order-slow-answer.ts [--rounds N] [--lines N] [--cli PATH] [--cap S] [--orders input,completion]
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from './lib/server.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string' },
    lines: { type: 'string' },
    cli: { type: 'string' },
    cap: { type: 'string' },
    orders: { type: 'string' },
  },
});
const ROUNDS = Number(values.rounds ?? 2);
const LINES = Number(values.lines ?? 100_000);
const CLI = values.cli ?? 'dist/cli.js';
const CAP_MS = Number(values.cap ?? 3_600) * 1000;
const ORDERS = (values.orders ?? 'input,completion').split(',');
const dir = mkdtempSync(join(tmpdir(), 'order-slow-'));
const list = Array.from({ length: LINES }, (_, i) => createHash('sha256').update(`order-slow${i}`).digest('hex'));
const input = join(dir, 'hashes.txt');
writeFileSync(input, `${list.join('\n')}\n`);
const server = await startServer(20, 0, { hash: list[9] as string, ms: 15_000 });

function run(order: string): Promise<{ ms: number; lines: number; code: number | null }> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, 'lookup', '-q', '-f', 'ndjson', '--order', order, '--input', input], {
    env: { ...process.env, HASHSCAN_BASE_URL: server.url, HASHSCAN_API_KEY: server.apiKey },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let lines = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
  });
  const cap = setTimeout(() => child.kill('SIGKILL'), CAP_MS);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(cap);
      resolve({ ms: performance.now() - started, lines, code });
    }),
  );
}

const results: Record<string, number[]> = {};
for (let round = 0; round < ROUNDS; round += 1) {
  for (const order of round % 2 === 0 ? ORDERS : [...ORDERS].reverse()) {
    const { ms, lines, code } = await run(order);
    const perSecond = (lines / ms) * 1000;
    results[order] ??= [];
    results[order].push(perSecond);
    const end = code === null ? 'stopped at the cap' : `exit ${code}`;
    console.log(
      `round ${round + 1} --order ${order}: ${lines} lines in ${(ms / 1000).toFixed(1)} s, ${Math.round(perSecond)} lines/s, ${end}`,
    );
  }
}
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;
for (const [order, rates] of Object.entries(results)) {
  console.log(`--order ${order}: median ${Math.round(median(rates))} lines/s (${rates.map(Math.round).join(', ')})`);
}
const { input: inputRates, completion: completionRates } = results;
if (inputRates !== undefined && completionRates !== undefined) {
  console.log(`input / completion: ${(median(inputRates) / median(completionRates)).toFixed(2)}×`);
}
await server.close();
