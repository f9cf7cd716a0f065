/**
 * A minimal loopback hash lookup service for benchmarks, run in its own
 * process (see server.ts) so that it neither shares the client's core nor
 * keeps a request log. It answers every lookup with the documented
 * non-detection body, checks the api_key and counts lookups. With
 * BENCH_DELAY_MS it answers each lookup that many milliseconds late (a remote
 * service), so concurrency, not CPU, decides.
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
let lookups = 0;

const server = createServer((req, res) => {
  if (req.url?.startsWith(prefix) === true) {
    lookups += 1;
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
  if (message === 'count') process.send?.({ lookups });
  if (message === 'reset') {
    lookups = 0;
    process.send?.({ lookups });
  }
  if (message === 'close') server.close(() => process.exit(0));
});
