/**
 * One scanMany (or hand-written loop) run over `count` unique hashes in a
 * fresh process (spawned by batch-memory.ts), so peaks never mix. Every
 * outcome is kept until the peak is taken, as a batch job does. Prints one JSON line.
 * `raw` is the bare fetch loop; `raw-timeout` adds the per-request time-out a
 * production loop needs (an AbortController per request, as the SDK has);
 * `ky-timeout` is that loop written with ky.
 * Usage: node --expose-gc --import tsx bench/batch-memory-child.ts <sdk|sdk-nocache|raw|raw-timeout|ky-timeout> <baseUrl> <apiKey> <count> <concurrency>
 */
import { bareGet, carefulGet, kyGetter, type RawAnswer, rawLoop } from './lib/raw-loop.js';
import { loadSdk } from './lib/sdk.js';

/** The hand-written loops: bare `fetch`, `fetch` with the spec's time-out, ky with the same time-out. */
const LOOPS: Record<string, (url: string) => Promise<RawAnswer>> = {
  raw: bareGet,
  'raw-timeout': carefulGet,
  'ky-timeout': kyGetter(),
};

const [variant = 'sdk', baseUrl = '', apiKey = '', countArg = '0', concurrencyArg = '64'] = process.argv.slice(2);
const count = Number(countArg);
const concurrency = Number(concurrencyArg);

// Inputs exist before the start, as they would in a job that loaded them.
const hashes = Array.from({ length: count }, (_, i) => i.toString(16).padStart(64, '0'));
const sdk = variant.startsWith('sdk') ? await loadSdk() : undefined;
// `sdk-nocache`: the same without the result cache, to tell its share apart.
const client =
  sdk === undefined
    ? undefined
    : new sdk.HashScanClient({ baseUrl, apiKey, ...(variant === 'sdk-nocache' ? { cache: false } : {}) });

const startRss = process.memoryUsage().rss;
let peakRss = startRss;
let peakHeap = 0;
let peakExternal = 0;
const sampler = setInterval(() => {
  const usage = process.memoryUsage();
  peakRss = Math.max(peakRss, usage.rss);
  peakHeap = Math.max(peakHeap, usage.heapTotal);
  peakExternal = Math.max(peakExternal, usage.external);
}, 5);

const started = performance.now();
const outcomes: readonly { readonly verdict: string }[] =
  client === undefined
    ? await rawLoop(baseUrl, apiKey, hashes, concurrency, LOOPS[variant] ?? bareGet)
    : await client.scanMany(hashes, { concurrency });
const durationMs = performance.now() - started;
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
const notDetected = outcomes.filter((outcome) => outcome.verdict === 'not_detected').length;
const maxRssMb = process.resourceUsage().maxRSS / 1024;
// After the peak: what the results themselves hold, garbage collected (needs --expose-gc).
(globalThis as { gc?: () => void }).gc?.();
const retainedHeapMb = process.memoryUsage().heapUsed / 2 ** 20;

process.stdout.write(
  `${JSON.stringify({
    variant,
    count,
    outcomes: outcomes.length,
    notDetected,
    durationMs,
    startRssMb: startRss / 2 ** 20,
    peakRssMb: peakRss / 2 ** 20,
    maxRssMb,
    peakHeapTotalMb: peakHeap / 2 ** 20,
    peakExternalMb: peakExternal / 2 ** 20,
    retainedHeapMb,
    keep: outcomes.length,
  })}\n`,
);
