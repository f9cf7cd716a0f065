/**
 * What each of the default path's guarantees costs (issue 36): the SDK built
 * as it is and once per guarantee with that guarantee taken out, all run
 * interleaved with the hand-written ky loop and the careful `fetch` loop
 * (4,000 unique hashes, c=64, loopback server answering at once).
 *
 *   node --expose-gc --import tsx bench/ablation.ts [--rounds=5] [--batch=4000] [--quick] [--variants=no-release,…]
 *   BENCH_BEFORE_DIST=<dist of another build> …   # that build's SDK too, as `SDK before`
 *
 * Each variant is a copy of `src/` with a few exact text replacements (each
 * must match exactly once, so a variant can never silently measure the
 * unchanged code), bundled with esbuild into `bench/.tmp/ablation/<name>/`.
 * `full` is the unchanged source built the same way, the baseline of every
 * difference. Nothing here ships: the switches exist only in these copies.
 */
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BENCH_DIR, QUICK, ROOT } from './lib/config.js';
import { contest, type Lookup } from './lib/contest.js';
import { uniqueHashes } from './lib/hashes.js';
import { machine } from './lib/machine.js';
import { carefulGet, kyGetter, rawLoop } from './lib/raw-loop.js';
import { loadBeforeSdk, type Sdk } from './lib/sdk.js';
import { startServer } from './lib/server.js';
import { type Summary, summarize } from './lib/stats.js';

/** One text replacement in one source file. */
interface Edit {
  readonly file: string;
  readonly from: string;
  readonly to: string;
}

const SENDING = 'transport/http/sending.ts';
const INTERPRET = 'hashscan/interpret-response.ts';
const CLIENT = 'hashscan/hashscan-client.ts';
const RESILIENCE = 'transport/resilience/resilience.ts';

const EDITS = {
  /** The attempt's abort once its body is read (issue 10's memory fix). */
  release: [{ file: SENDING, from: 'if (custom === undefined) controller.abort(SETTLED);', to: '' }],
  /** The strict reader (duplicate keys, depth, deep freeze) replaced by a bare `JSON.parse`. */
  strictParse: [
    {
      file: INTERPRET,
      from: '({ value, duplicates } = parseStrictJson(response.text, FROZEN));',
      to: 'value = JSON.parse(response.text); duplicates = [];',
    },
  ],
  /** The exact-shape check of a non-detection (keys, types, extra fields) skipped. */
  shapeCheck: [
    {
      file: INTERPRET,
      from: 'duplicates.length === 0 && isDocumentedNonDetection(value, context.notDetected)',
      to: 'duplicates.length === 0 && (value as { is_virus?: unknown }).is_virus === false',
    },
  ],
  /** `scanMany`'s bookkeeping (entries checked, distinct hashes numbered, progress, the batch's signal) replaced by a bare pool. */
  batch: [
    {
      file: CLIENT,
      from: 'return scanBatch(hashes, settings, (query, signal) => this.#outcomeOf(query, signal, totalTimeoutMs));',
      to: `const outcomes = new Array<ScanOutcome>(hashes.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < hashes.length) {
        const index = next++;
        outcomes[index] = await this.#outcomeOf(normalizeHash(hashes[index] as string), undefined, totalTimeoutMs);
      }
    };
    await Promise.all(Array.from({ length: Math.min(settings.concurrency, hashes.length) }, worker));
    void scanBatch;
    return outcomes;`,
    },
  ],
  /** The in-flight map that merges concurrent lookups of one hash (and their callers' aborts) bypassed. */
  inFlight: [
    {
      file: CLIENT,
      from: 'let result = this.#inFlight.join(query.hash, waitSignal, aborted);',
      to: 'let result: Promise<ScanResult> | undefined; void aborted;',
    },
    {
      file: CLIENT,
      from: 'result = this.#inFlight.track(query.hash, flight, this.#answer(lookup, trace), waitSignal, aborted);',
      to: 'result = this.#answer(lookup, trace);',
    },
  ],
  /** The circuit breaker's admission and settlement (the retry budget is then never consulted either). */
  breaker: [
    {
      file: RESILIENCE,
      from: 'if (this.#settings.breaker === undefined || ticket.admission !== undefined) return undefined;',
      to: 'return undefined;',
    },
  ],
} as const satisfies Record<string, readonly Edit[]>;

type Piece = keyof typeof EDITS;
const PIECES = Object.keys(EDITS) as Piece[];

/** Every variant: the unchanged source, one piece out each, and all of them out together. */
const VARIANTS: Readonly<Record<string, readonly Edit[]>> = {
  full: [],
  ...Object.fromEntries(PIECES.map((piece) => [`no ${piece}`, EDITS[piece]])),
  'none of them': PIECES.flatMap((piece): readonly Edit[] => EDITS[piece]),
};

const OUT = join(BENCH_DIR, '.tmp', 'ablation');

/** Copies `src/`, applies `edits` (each must match once) and bundles the root entry as the package does (ky and zod in). */
async function buildVariant(name: string, edits: readonly Edit[]): Promise<string> {
  const dir = join(OUT, name.replaceAll(' ', '-'));
  await rm(dir, { recursive: true, force: true });
  await cp(join(ROOT, 'src'), join(dir, 'src'), { recursive: true });
  for (const edit of edits) {
    const path = join(dir, 'src', edit.file);
    const text = await readFile(path, 'utf8');
    const at = text.indexOf(edit.from);
    if (at < 0 || text.indexOf(edit.from, at + 1) >= 0) {
      throw new Error(`${name}: "${edit.from.slice(0, 60)}…" must occur exactly once in ${edit.file}`);
    }
    await writeFile(
      path,
      text.replace(edit.from, () => edit.to),
    );
  }
  const outfile = join(dir, 'index.js');
  await build({
    entryPoints: [join(dir, 'src', 'index.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // As tsup.config.ts: zod, ky and @noble/hashes bundled in, the other dependencies and peers resolved from node_modules.
    external: ['libphonenumber-js', 'lru-cache', 'msw', '@opentelemetry/api', 'undici', 'ioredis', 'bullmq'],
    logLevel: 'error',
  });
  return outfile;
}

const arg = (name: string, fallback: number): number => {
  const given = process.argv.find((a) => a.startsWith(`--${name}=`));
  return given === undefined ? fallback : Number(given.slice(name.length + 3));
};
const rounds = arg('rounds', QUICK ? 1 : 5);
const n = arg('batch', QUICK ? 300 : 4_000);
const concurrency = 64;

const chosen = process.argv
  .find((a) => a.startsWith('--variants='))
  ?.slice('--variants='.length)
  .split(',');
const sdks: Record<string, Sdk> = {};
for (const [name, edits] of Object.entries(VARIANTS)) {
  if (name !== 'full' && chosen !== undefined && !chosen.includes(name.replaceAll(' ', '-'))) continue;
  sdks[name] = (await import(pathToFileURL(await buildVariant(name, edits)).href)) as Sdk;
}
// An earlier build run beside them (before/after in the same rounds), as bench/run.ts does.
const before = await loadBeforeSdk();
if (before !== undefined) sdks.before = before;
const server = await startServer();
await (await fetch('data:,')).text();
const kyGet = kyGetter();
const contenders: Record<string, Lookup> = {
  'ky loop': (hashes) => rawLoop(server.url, server.apiKey, hashes, concurrency, kyGet),
  'careful fetch loop': (hashes) => rawLoop(server.url, server.apiKey, hashes, concurrency, carefulGet),
};
for (const [name, sdk] of Object.entries(sdks)) {
  const client = new sdk.HashScanClient({ baseUrl: server.url, apiKey: server.apiKey, cache: false });
  contenders[`SDK ${name}`] = (hashes) => client.scanMany(hashes, { concurrency });
}
const started = machine();
const result = await contest(contenders, { rounds, warmUp: !QUICK, n, inputs: () => uniqueHashes(n) });
await server.close();

const show = (s: Summary, unit = '×'): string => `${s.median}${unit} (${s.min}–${s.max})`;
/** Per round: what the full SDK spends per request over the variant (µs); the piece's cost. */
const saved = (name: string): Summary => {
  const full = result.figures['SDK full'];
  const other = result.figures[name];
  if (full === undefined || other === undefined) throw new Error(name);
  return summarize(
    full.cpuUs.samples.map((us, round) => us - (other.cpuUs.samples[round] ?? Number.NaN)),
    1,
  );
};
console.log(`\n${rounds} interleaved rounds of ${n} unique hashes, c=${concurrency}; ${JSON.stringify(started)}`);
console.log('| Contender | CPU µs/request | ÷ ky loop | full SDK minus this (µs/request) |');
console.log('|---|---|---|---|');
for (const name of Object.keys(contenders)) {
  const figures = result.figures[name];
  if (figures === undefined) continue;
  const overKy = name === 'ky loop' ? '1' : show(result.cpu(name, 'ky loop'));
  const diff = name.startsWith('SDK ') && name !== 'SDK full' ? show(saved(name), '') : '';
  console.log(`| ${name} | ${show(figures.cpuUs, '')} | ${overKy} | ${diff} |`);
}
console.log(`ended: ${JSON.stringify(machine())}`);
