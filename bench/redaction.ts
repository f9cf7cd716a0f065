/**
 * What masking every spelling of a secret costs per call (issue 36): the
 * redactor on one log line, now and (with `BENCH_BEFORE_SRC`, the `src/` of
 * another checkout) before, interleaved; and masking a parsed body that holds
 * no secret, the work every answer now pays once, beside the strict parse of
 * the same body for scale. CPU time per call, median [min–max] of 7 rounds.
 *
 *   node --import tsx bench/redaction.ts [--calls=200000]
 *   BENCH_BEFORE_SRC=../before/src node --import tsx bench/redaction.ts
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseStrictJson } from '../src/json/strict-parse.js';
import { maskJson } from '../src/secrets/mask-json.js';
import { createRedactor, type RedactionRules, type Redactor } from '../src/secrets/redact.js';
import { summarize } from './lib/stats.js';

const CALLS = Number(process.argv.find((arg) => arg.startsWith('--calls='))?.slice('--calls='.length) ?? 200_000);
const ROUNDS = 7;
const KEY = 'SENTINEL/k3y+b64=AbCdEfGhIjKlMnOp';
const RULES: RedactionRules = { secrets: [KEY], params: { api_key: 'full' } };
const LINE = `hashscan: GET https://h.example/hash_scan?api_key=${encodeURIComponent(KEY)}&hash=${'a'.repeat(64)} -> 200 in 41 ms (attempt 1)`;
const NOT_DETECTED = JSON.stringify({
  status: 'success',
  is_virus: false,
  message: 'No active service detected this file',
});

/** Nanoseconds of CPU per call of `run`, one sample per round. */
function sample(run: () => unknown): number {
  const start = process.cpuUsage();
  for (let i = 0; i < CALLS; i += 1) run();
  const spent = process.cpuUsage(start);
  return ((spent.user + spent.system) * 1000) / CALLS;
}

const before = process.env.BENCH_BEFORE_SRC;
const redactBefore: Redactor | undefined = before
  ? (
      (await import(pathToFileURL(resolve(before, 'secrets/redact.ts')).href)) as {
        createRedactor: (rules: RedactionRules) => Redactor;
      }
    ).createRedactor(RULES)
  : undefined;

const redact = createRedactor(RULES);
const body = parseStrictJson(NOT_DETECTED, { freeze: true }).value;
const contenders: (readonly [string, () => unknown])[] = [
  ['redact one log line (now)', () => redact(LINE)],
  ...(redactBefore === undefined ? [] : [['redact one log line (before)', () => redactBefore(LINE)] as const]),
  ['strict parse of a non-detection (for scale)', () => parseStrictJson(NOT_DETECTED, { freeze: true })],
  ['maskJson of a non-detection without a secret', () => maskJson(NOT_DETECTED, body, redact)],
];
const samples = new Map(contenders.map(([name]) => [name, [] as number[]]));
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [name, run] of contenders) samples.get(name)?.push(sample(run));
}
console.log(`| Contender | ns CPU per call, median | min – max |\n|---|---|---|`);
for (const [name, values] of samples) {
  const { median, min, max } = summarize(values, 0);
  console.log(`| ${name} | ${median} | ${min} – ${max} |`);
}
console.log(`\n${CALLS} calls × ${ROUNDS} rounds, interleaved, on ${process.version}`);
