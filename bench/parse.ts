/**
 * Micro-benchmark: reading one answer (parse + interpret) of the hash lookup,
 * for the documented non-detection and a textbook hit.
 *
 * Contenders, interleaved round by round:
 * - `sdk`: `interpretScanResponse` (the strict JSON reader, then the checks);
 * - `jsonParse`: what a careful user writes: `JSON.parse`, the same strict
 *   zod schema, a recursive deep freeze (blind to repeated keys and depth);
 * - `before` (optional): another `interpretScanResponse`, e.g. main's, loaded
 *   from the module named by `PARSE_BEFORE` (a path relative to this file).
 *
 * Run: `node --expose-gc --import tsx bench/parse.ts` (`--quick` for a short run).
 * tsx keeps function names by wrapping every closure it creates, which
 * bills the SDK (not the inline competitor) for it; for figures like the
 * published build's, bundle first:
 * `npx esbuild bench/parse.ts --bundle --platform=node --format=esm --outfile=/tmp/parse.mjs && node --expose-gc /tmp/parse.mjs`.
 * Prints ns per read: median and min–max over rounds.
 */
import { z } from 'zod';
import { normalizeHash } from '../src/hashing/hash-algorithm.js';
import { interpretScanResponse } from '../src/hashscan/interpret-response.js';
import { notDetectedSchema } from '../src/hashscan/response-schema.js';
import type { IncomingResponse } from '../src/transport/call/transport.js';
import { interleave, time } from './lib/interleave.js';
import { summarize } from './lib/stats.js';

type Interpret = typeof interpretScanResponse;

const quick = process.argv.includes('--quick');
const rounds = quick ? 5 : 15;
const reads = quick ? 20_000 : 100_000;

const sha256 = '275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f';
const bodies = {
  notDetected: JSON.stringify({ status: 'success', is_virus: false, message: 'No active service detected this file' }),
  hit: JSON.stringify({
    status: 'success',
    is_virus: true,
    source: 'engine-x',
    data: {
      sha256,
      md5: '44d88612fea8a8f36de82e1278abb02f',
      sha1: '3395856ce81f2b7382dee72602f798b642f14140',
      first_seen: '2024-01-02 03:04:05',
      last_seen: '2024-06-07 08:09:10',
    },
  }),
};

const headers = { get: () => null };
const context = {
  query: normalizeHash(sha256),
  notDetected: notDetectedSchema([]),
  redact: (text: string) => text,
};

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

const hitSchema = z.object({
  status: z.literal('success'),
  is_virus: z.literal(true),
  source: z.string(),
  data: z.record(z.string(), z.string()),
});

/** JSON.parse + zod + recursive freeze: the reader a careful user would write. */
const jsonParse: Interpret = (response) => {
  const parsed = deepFreeze(JSON.parse(response.text) as unknown);
  const documented = context.notDetected.safeParse(parsed);
  if (documented.success) return { verdict: 'not_detected', message: documented.data.message } as never;
  return { verdict: 'malicious', ...hitSchema.parse(parsed) } as never;
};

async function loadBefore(): Promise<Interpret | undefined> {
  const path = process.env.PARSE_BEFORE;
  if (path === undefined) return undefined;
  return ((await import(path)) as { interpretScanResponse: Interpret }).interpretScanResponse;
}

let sink = 0;
function run(interpret: Interpret, text: string): Promise<number> {
  const response: IncomingResponse = { status: 200, headers, text, attempt: 1 };
  return time(async () => {
    for (let i = 0; i < reads; i++) sink += interpret(response, context).verdict.length;
  });
}

const before = await loadBefore();
for (const [name, text] of Object.entries(bodies)) {
  const contenders: Record<string, () => Promise<number>> = {
    sdk: () => run(interpretScanResponse, text),
    jsonParse: () => run(jsonParse, text),
    ...(before && { before: () => run(before, text) }),
  };
  await interleave(2, contenders); // warm-up
  const ms = await interleave(rounds, contenders);
  for (const [contender, samples] of Object.entries(ms)) {
    const ns = summarize(
      samples.map((value) => (value * 1e6) / reads),
      0,
    );
    console.log(`${name.padEnd(12)} ${contender.padEnd(10)} ${ns.median} ns/read  (min–max ${ns.min}–${ns.max})`);
  }
}
if (sink === 0) throw new Error('nothing was read');
