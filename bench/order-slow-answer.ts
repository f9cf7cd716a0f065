/**
 * `lookup --order input` against `--order completion` when one answer is
 * slow: 100,000 distinct SHA-256 lines from a file, NDJSON to /dev/null,
 * against the loopback bench server (its own process) answering after
 * 20 ms, except line 10, whose every lookup is answered after 15 s (past the
 * default 10 s time-out: each attempt times out and is retried, the line
 * ends `TIMEOUT`). The two orders run interleaved, the order of the pair
 * swapped each round; wall time from spawn to exit, lines a second.
 *
 * Usage: npm run build && node --import tsx bench/order-slow-answer.ts [--rounds N] [--lines N] [--cli PATH]
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from './lib/server.js';

const { values } = parseArgs({
  options: { rounds: { type: 'string' }, lines: { type: 'string' }, cli: { type: 'string' } },
});
const ROUNDS = Number(values.rounds ?? 2);
const LINES = Number(values.lines ?? 100_000);
const CLI = values.cli ?? 'dist/cli.js';
const dir = mkdtempSync(join(tmpdir(), 'order-slow-'));
const list = Array.from({ length: LINES }, (_, i) => createHash('sha256').update(`order-slow${i}`).digest('hex'));
const input = join(dir, 'hashes.txt');
writeFileSync(input, `${list.join('\n')}\n`);
const server = await startServer(20, 0, { hash: list[9] as string, ms: 15_000 });

function run(order: string): Promise<{ ms: number; code: number | null }> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, 'lookup', '-q', '-f', 'ndjson', '--order', order, '--input', input], {
    env: { ...process.env, HASHSCAN_BASE_URL: server.url, HASHSCAN_API_KEY: server.apiKey },
    stdio: ['ignore', openSync('/dev/null', 'w'), 'inherit'],
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ ms: performance.now() - started, code })));
}

const results: Record<string, number[]> = { input: [], completion: [] };
for (let round = 0; round < ROUNDS; round += 1) {
  for (const order of round % 2 === 0 ? ['input', 'completion'] : ['completion', 'input']) {
    const { ms, code } = await run(order);
    results[order]?.push(ms);
    console.log(
      `round ${round + 1} --order ${order}: ${(ms / 1000).toFixed(1)} s, ${Math.round((LINES / ms) * 1000)} lines/s, exit ${code}`,
    );
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;
const input_ = median(results.input as number[]);
const completion = median(results.completion as number[]);
console.log(
  `median: input ${(input_ / 1000).toFixed(1)} s, completion ${(completion / 1000).toFixed(1)} s, ratio ${(completion / input_).toFixed(2)}×`,
);
await server.close();
