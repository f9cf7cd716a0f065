/**
 * Benchmark 1: `scanMany` over distinct hashes (cache off) against the
 * careful hand-written `fetch` loop (per-request time-out covering the body,
 * `JSON.parse`, the same shape checks), interleaved, with wall time and CPU
 * per request for every contender. Beside it: the bare `fetch` loop (no
 * time-out), the same careful loop written with ky, the SDK on its opt-in
 * undici dispatcher, `undici.request` as the platform's floor and, when
 * `BENCH_BEFORE_DIST` names one, the SDK of an earlier build (default path and dispatcher).
 *
 * The same run serves the remote-like profile (benchmark 1b, remote.ts): a
 * server answering each lookup 20 ms late, where concurrency decides.
 */
import { batchClients } from './lib/clients.js';
import type { Settings } from './lib/config.js';
import { type ContenderFigures, contest, type Lookup } from './lib/contest.js';
import { uniqueHashes } from './lib/hashes.js';
import { bareGet, carefulGet, rawLoop } from './lib/raw-loop.js';
import type { Sdk } from './lib/sdk.js';
import type { BenchServer } from './lib/server.js';
import type { Summary } from './lib/stats.js';

export type ThroughputContender =
  | 'careful'
  | 'bare'
  | 'ky'
  | 'sdk'
  | 'sdkDispatcher'
  | 'undici'
  | 'sdkBefore'
  | 'sdkDispatcherBefore';

export interface ThroughputResult {
  readonly hashes: number;
  readonly concurrency: number;
  /** How late the server answered each lookup (0: at once, loopback). */
  readonly serverDelayMs: number;
  /** Requests/s and CPU µs per request of every contender (median, min–max over rounds). */
  readonly contenders: Readonly<Partial<Record<ThroughputContender, ContenderFigures>>>;
  /** SDK (default: ky over fetch) CPU per request / the hand-written ky loop's. Target <= 1.1. */
  readonly sdkCpuOverKy: Summary;
  /** SDK CPU per request / the careful fetch loop's. Target <= 1.3. */
  readonly sdkCpuOverCareful: Summary;
  /** SDK throughput / careful fetch loop throughput (target >= 1.0 on the 20 ms server). */
  readonly sdkOverCareful: Summary;
  /** SDK with the opt-in `dispatcher` / `undici.request` loop, throughput. Target >= 0.95. */
  readonly sdkDispatcherOverUndici: Summary;
  /** SDK with `dispatcher` / careful fetch loop, throughput. */
  readonly sdkDispatcherOverCareful: Summary;
  /** Hand-written ky loop CPU / careful fetch loop CPU: what ky itself costs. */
  readonly kyCpuOverCareful: Summary;
  /** Careful loop CPU / bare loop CPU: what the time-out signal costs. */
  readonly carefulCpuOverBare: Summary;
  /** Bare loop / careful loop throughput. */
  readonly bareOverCareful: Summary;
  /** This build over the `BENCH_BEFORE_DIST` build: throughput and CPU per request. */
  readonly sdkOverBefore?: Summary;
  readonly sdkCpuOverBefore?: Summary;
  /** The same for the SDK with the opt-in `dispatcher`. */
  readonly sdkDispatcherOverBefore?: Summary;
  readonly sdkDispatcherCpuOverBefore?: Summary;
}

export async function throughput(
  sdk: Sdk,
  server: BenchServer,
  settings: Settings,
  n: number,
  before?: Sdk,
): Promise<ThroughputResult> {
  const { concurrency, rounds } = settings;
  const clients = await batchClients(sdk, server, before);
  const { url, apiKey } = server;
  const loop =
    (get: (url: string) => Promise<{ status: number; text: string }>): Lookup =>
    (hashes) =>
      rawLoop(url, apiKey, hashes, concurrency, get);
  const { beforeClient, beforeDispatcherClient } = clients;
  const contenders: Partial<Record<ThroughputContender, Lookup>> = {
    careful: loop(carefulGet),
    sdk: (hashes) => clients.fetchClient.scanMany(hashes, { concurrency }),
    ky: loop(clients.kyGet),
    bare: loop(bareGet),
    sdkDispatcher: (hashes) => clients.dispatcherClient.scanMany(hashes, { concurrency }),
    undici: loop(clients.undiciGet),
    ...(beforeClient && { sdkBefore: (hashes: string[]) => beforeClient.scanMany(hashes, { concurrency }) }),
    ...(beforeDispatcherClient && {
      sdkDispatcherBefore: (hashes: string[]) => beforeDispatcherClient.scanMany(hashes, { concurrency }),
    }),
  };
  const result = await contest(contenders as Record<ThroughputContender, Lookup>, {
    rounds,
    warmUp: settings.warmUp,
    n,
    inputs: () => uniqueHashes(n),
  });
  await clients.close();
  const { speed, cpu } = result;
  return {
    hashes: n,
    concurrency,
    serverDelayMs: server.delayMs,
    contenders: result.figures,
    sdkCpuOverKy: cpu('sdk', 'ky'),
    sdkCpuOverCareful: cpu('sdk', 'careful'),
    sdkOverCareful: speed('sdk', 'careful'),
    sdkDispatcherOverUndici: speed('sdkDispatcher', 'undici'),
    sdkDispatcherOverCareful: speed('sdkDispatcher', 'careful'),
    kyCpuOverCareful: cpu('ky', 'careful'),
    carefulCpuOverBare: cpu('careful', 'bare'),
    bareOverCareful: speed('bare', 'careful'),
    ...(beforeClient && { sdkOverBefore: speed('sdk', 'sdkBefore'), sdkCpuOverBefore: cpu('sdk', 'sdkBefore') }),
    ...(beforeDispatcherClient && {
      sdkDispatcherOverBefore: speed('sdkDispatcher', 'sdkDispatcherBefore'),
      sdkDispatcherCpuOverBefore: cpu('sdkDispatcher', 'sdkDispatcherBefore'),
    }),
  };
}
