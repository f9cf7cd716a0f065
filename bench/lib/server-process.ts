/**
 * A minimal loopback hash lookup service for benchmarks, run in its own
 * process (see server.ts) so that it neither shares the client's core nor
 * keeps a request log. It answers every lookup with the documented
 * non-detection body, checks the api_key and counts lookups. With
 * BENCH_DELAY_MS it answers each lookup that many milliseconds late (a remote
 * service), so concurrency, not CPU, decides. With BENCH_RATE it admits
 * that many lookups a second (a token bucket holding a tenth of a second's
 * worth) and answers the rest 429 with `Retry-After: 1`, as a rate-limited
 * service does. With BENCH_SLOW_HASH and BENCH_SLOW_MS, every lookup of
 * that one hash is answered that late (a slow answer among fast ones).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const apiKey = process.env.BENCH_API_KEY ?? '';
const delayMs = Number(process.env.BENCH_DELAY_MS ?? '0');
const prefix = `/hash_scan?api_key=${encodeURIComponent(apiKey)}&hash=`;
const body = Buffer.from(
  JSON.stringify({ status: 'success', is_virus: false, message: 'No active detection service flagged this file.' }),
);
const headers = { 'content-type': 'application/json', 'content-length': String(body.length) };
const denied = Buffer.from(JSON.stringify({ status: 'error', message: 'bad api_key' }));
const rate = Number(process.env.BENCH_RATE ?? '0');
const burst = Math.max(1, rate / 10);
let tokens = burst;
let filled = performance.now();
const tooMany = Buffer.from(JSON.stringify({ status: 'error', message: 'rate limited' }));
const slowHash = process.env.BENCH_SLOW_HASH ?? '';
const slowMs = Number(process.env.BENCH_SLOW_MS ?? '0');
let lookups = 0;
let refused = 0;

/** Takes a token; `false` when the bucket is empty. */
function admit(): boolean {
  if (rate <= 0) return true;
  const now = performance.now();
  tokens = Math.min(burst, tokens + ((now - filled) / 1000) * rate);
  filled = now;
  if (tokens < 1) return false;
  tokens -= 1;
  return true;
}

const server = createServer((req, res) => {
  if (req.url?.startsWith(prefix) === true) {
    if (!admit()) {
      refused += 1;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end(tooMany);
      return;
    }
    lookups += 1;
    if (slowHash !== '' && req.url.slice(prefix.length) === slowHash) {
      setTimeout(() => res.writeHead(200, headers).end(body), slowMs);
      return;
    }
    if (delayMs > 0) setTimeout(() => res.writeHead(200, headers).end(body), delayMs);
    else res.writeHead(200, headers).end(body);
  } else {
    res.writeHead(401, { 'content-type': 'application/json' }).end(denied);
  }
});
// Idle gaps between rounds must not close the pooled connections.
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});

process.on('message', (message: string) => {
  if (message === 'count') process.send?.({ lookups, refused });
  if (message === 'reset') {
    lookups = 0;
    refused = 0;
    process.send?.({ lookups, refused });
  }
  if (message === 'close') server.close(() => process.exit(0));
});
