/**
 * One scanIterable run in a fresh process (spawned by streaming.ts) so that
 * peaks of different input sizes never mix. Prints one JSON line.
 * Usage: node --expose-gc --import tsx bench/streaming-child.ts <baseUrl> <apiKey> <count> <concurrency>
 * (gc() runs only after the peak is taken, to tell retained memory from garbage not yet collected.)
 */
import { loadSdk } from './lib/sdk.js';

const [baseUrl = '', apiKey = '', countArg = '0', concurrencyArg = '64'] = process.argv.slice(2);
const count = Number(countArg);

function* hashes(): Generator<string> {
  for (let i = 0; i < count; i++) yield i.toString(16).padStart(64, '0');
}

const sdk = await loadSdk();
const client = new sdk.HashScanClient({ baseUrl, apiKey, cache: false });
const startRss = process.memoryUsage().rss;
let peakRss = startRss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 5);

let seen = 0;
let notDetected = 0;
const started = performance.now();
for await (const outcome of client.scanIterable(hashes(), { concurrency: Number(concurrencyArg) })) {
  seen += 1;
  if (outcome.verdict === 'not_detected') notDetected += 1;
}
const durationMs = performance.now() - started;
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);

const maxRssMb = process.resourceUsage().maxRSS / 1024;
(globalThis as { gc?: () => void }).gc?.();
const retainedHeapMb = process.memoryUsage().heapUsed / 2 ** 20;

process.stdout.write(
  `${JSON.stringify({
    count,
    seen,
    notDetected,
    durationMs,
    startRssMb: startRss / 2 ** 20,
    peakRssMb: peakRss / 2 ** 20,
    maxRssMb,
    retainedHeapMb,
  })}\n`,
);
