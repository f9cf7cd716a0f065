/**
 * The circuit breaker against a service that fails in bursts (issue 28),
 * over real HTTP on loopback, in real time:
 *
 * 1. Bursts: the service answers 503 for 2 s every 10 s (and, second
 *    pattern, 1 s every 4 s), 200 otherwise; 20 calls a second, each for a
 *    distinct hash, every client option at its default but the breaker's.
 *    Contenders: the defaults, `circuitBreaker: false`, and last round's
 *    defaults (`cooldownMs: 30000, maxCooldownMs: 120000`). Every contender
 *    and pattern runs at the same time against a service of its own started
 *    on the same clock, so all of them meet the same bursts.
 * 2. A full outage (every answer 503 after 10 ms): 1 000 calls from 50
 *    concurrent callers, `retry: { retries: 2, minDelayMs: 50, maxDelayMs: 400 }`
 *    (last round's outage bench, `bench/fleet.ts`), for the same contenders.
 *
 * Answered share, requests per call, `CIRCUIT_OPEN` per call; medians with
 * min–max over the rounds.
 *
 *   npm run bench:bursts            # full → bench/results.bursts.json
 *   npm run bench:bursts -- --quick # smaller → bench/.tmp/results.bursts.json
 */

import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { BENCH_DIR, QUICK } from './lib/config.js';
import { machine } from './lib/machine.js';
import { pool } from './lib/pool.js';
import { loadSdk, type Sdk } from './lib/sdk.js';
import { type Summary, summarize } from './lib/stats.js';

const SETTINGS = QUICK
  ? { rounds: 1, burstRunMs: 20_000, outageCalls: 300 }
  : { rounds: 3, burstRunMs: 60_000, outageCalls: 1_000 };
const RATE = 20;
const LATENCY_MS = 10;
const OUTAGE_CALLERS = 50;

const NOT_DETECTED = JSON.stringify({
  status: 'success',
  is_virus: false,
  message: 'No active service detected this file',
});

type Options = ConstructorParameters<Sdk['HashScanClient']>[0];

const CONTENDERS: Readonly<Record<string, Options>> = {
  defaults: {},
  'circuitBreaker: false': { circuitBreaker: false },
  'last round (cooldownMs 30000, maxCooldownMs 120000)': {
    circuitBreaker: { cooldownMs: 30_000, maxCooldownMs: 120_000 },
  },
};

const PATTERNS: Readonly<Record<string, { burstMs: number; periodMs: number }>> = {
  '503 for 2 s every 10 s': { burstMs: 2_000, periodMs: 10_000 },
  '503 for 1 s every 4 s': { burstMs: 1_000, periodMs: 4_000 },
};

interface Service {
  readonly url: string;
  requests: number;
  close(): Promise<void>;
}

/** A lookup service on loopback answering 503 while `failing()` holds, after a fixed latency. */
async function startService(failing: () => boolean): Promise<Service> {
  const state = { requests: 0 };
  const server: Server = createServer((request, response) => {
    state.requests += 1;
    request.resume();
    const down = failing(); // decided on arrival
    setTimeout(() => {
      if (down) response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"unavailable"}');
      else response.writeHead(200, { 'content-type': 'application/json' }).end(NOT_DETECTED);
    }, LATENCY_MS);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    set requests(value: number) {
      state.requests = value;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Figures {
  readonly calls: number;
  readonly answered: number;
  readonly requests: number;
  readonly circuitOpen: number;
}

async function countOutcome(
  client: InstanceType<Sdk['HashScanClient']>,
  hash: string,
  figures: { answered: number; circuitOpen: number },
): Promise<void> {
  const outcome = await client.scanOutcome(hash);
  if (outcome.verdict !== 'error') figures.answered += 1;
  else if (outcome.error.code === 'CIRCUIT_OPEN') figures.circuitOpen += 1;
}

/** One round of every burst pattern × contender, all at once on one clock. */
async function burstRound(sdk: Sdk, round: number): Promise<Record<string, Figures>> {
  const start = performance.now();
  const runs: Promise<[string, Figures]>[] = [];
  for (const [pattern, { burstMs, periodMs }] of Object.entries(PATTERNS)) {
    // The first burst starts half a period in, so every run begins on a healthy service.
    const failing = () => (performance.now() - start + periodMs / 2) % periodMs < burstMs;
    for (const [name, options] of Object.entries(CONTENDERS)) {
      runs.push(
        (async (): Promise<[string, Figures]> => {
          const service = await startService(failing);
          const client = new sdk.HashScanClient({ apiKey: 'k', baseUrl: service.url, cache: false, ...options });
          const figures = { answered: 0, circuitOpen: 0 };
          const pending: Promise<void>[] = [];
          let calls = 0;
          const tag = `${round}${pattern.length}${name.length}`;
          while (performance.now() - start < SETTINGS.burstRunMs) {
            const due = start + (calls * 1_000) / RATE;
            const wait = due - performance.now();
            if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
            const hash = `${tag}${(calls++).toString(16)}`.padStart(64, '0');
            pending.push(countOutcome(client, hash, figures));
          }
          await Promise.all(pending);
          const requests = service.requests;
          await service.close();
          return [`${pattern} · ${name}`, { calls, requests, ...figures }];
        })(),
      );
    }
  }
  return Object.fromEntries(await Promise.all(runs));
}

/** One round of the full outage, contenders one after another (order rotated per round). */
async function outageRound(sdk: Sdk, round: number): Promise<Record<string, Figures>> {
  const service = await startService(() => true);
  const retry = { retries: 2, minDelayMs: 50, maxDelayMs: 400 };
  const names = Object.keys(CONTENDERS);
  const result: Record<string, Figures> = {};
  try {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length] as string;
      const options = CONTENDERS[name];
      const client = new sdk.HashScanClient({ apiKey: 'k', baseUrl: service.url, cache: false, ...options, retry });
      service.requests = 0;
      const figures = { answered: 0, circuitOpen: 0 };
      const hashes = Array.from({ length: SETTINGS.outageCalls }, (_, n) => `${round}${i}${n}`.padStart(64, 'd'));
      await pool(hashes, OUTAGE_CALLERS, (hash) => countOutcome(client, hash, figures));
      if (figures.answered > 0) throw new Error('an outage must never answer a verdict');
      result[name] = { calls: hashes.length, requests: service.requests, ...figures };
    }
  } finally {
    await service.close();
  }
  return result;
}

interface Row {
  readonly answeredShare: Summary;
  readonly requestsPerCall: Summary;
  readonly circuitOpenPerCall: Summary;
  /** Answered ÷ what `circuitBreaker: false` answered in the same round (burst patterns only). */
  readonly ofBreakerless?: Summary;
}

function rows(rounds: readonly Record<string, Figures>[], breakerless?: (key: string) => string): Record<string, Row> {
  const out: Record<string, Row> = {};
  for (const key of Object.keys(rounds[0] ?? {})) {
    const all = rounds.map((round) => round[key] as Figures);
    const base = breakerless?.(key);
    out[key] = {
      answeredShare: summarize(all.map((f) => (100 * f.answered) / f.calls)),
      requestsPerCall: summarize(all.map((f) => f.requests / f.calls)),
      circuitOpenPerCall: summarize(all.map((f) => f.circuitOpen / f.calls)),
      ...(base === undefined
        ? {}
        : {
            ofBreakerless: summarize(rounds.map((r) => (r[key] as Figures).answered / (r[base] as Figures).answered)),
          }),
    };
  }
  return out;
}

const cell = (s: Summary, digits = 3) =>
  `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;

async function main(): Promise<void> {
  const sdk = await loadSdk();
  const bursts: Record<string, Figures>[] = [];
  const outage: Record<string, Figures>[] = [];
  for (let round = 0; round < SETTINGS.rounds; round++) {
    process.stderr.write(`round ${round + 1}/${SETTINGS.rounds}: bursts…\n`);
    bursts.push(await burstRound(sdk, round));
    process.stderr.write(`round ${round + 1}/${SETTINGS.rounds}: full outage…\n`);
    outage.push(await outageRound(sdk, round));
  }
  const burstRows = rows(bursts, (key) => `${key.split(' · ')[0]} · circuitBreaker: false`);
  const outageRows = rows(outage);
  const results = {
    settings: { ...SETTINGS, rate: RATE, latencyMs: LATENCY_MS },
    machine: machine(),
    burstRows,
    outageRows,
    bursts,
    outage,
  };
  const output = QUICK ? `${BENCH_DIR}.tmp/results.bursts.json` : `${BENCH_DIR}results.bursts.json`;
  await mkdir(dirname(output), { recursive: true });
  await writeFile(output, `${JSON.stringify(results, null, 2)}\n`);

  console.log(`\nBursts (${RATE} calls/s, ${SETTINGS.burstRunMs / 1_000} s per run, ${SETTINGS.rounds} rounds)\n`);
  console.log('| pattern · client | answered | ÷ breaker-less | requests per call | CIRCUIT_OPEN per call |');
  console.log('|---|---|---|---|---|');
  for (const [key, row] of Object.entries(burstRows)) {
    const of = row.ofBreakerless === undefined ? '–' : cell(row.ofBreakerless);
    console.log(
      `| ${key} | ${cell(row.answeredShare, 1)} % | ${of} | ${cell(row.requestsPerCall)} | ${cell(row.circuitOpenPerCall)} |`,
    );
  }
  console.log(`\nFull outage (${SETTINGS.outageCalls} calls, ${OUTAGE_CALLERS} callers)\n`);
  console.log('| client | requests per call | CIRCUIT_OPEN per call |');
  console.log('|---|---|---|');
  for (const [key, row] of Object.entries(outageRows)) {
    console.log(`| ${key} | ${cell(row.requestsPerCall)} | ${cell(row.circuitOpenPerCall)} |`);
  }
  console.log(`\n→ ${output}`);
}

await main();
