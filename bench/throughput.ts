/**
 * Benchmark 1: scanMany over distinct hashes (cache off) vs a raw fetch loop,
 * interleaved. Also: the SDK on its opt-in undici dispatcher, the raw loop
 * with a per-request time-out, and undici.request as the platform's floor.
 */
import { batchClients } from './lib/clients.js';
import type { Settings } from './lib/config.js';
import { uniqueHashes } from './lib/hashes.js';
import { interleave, time } from './lib/interleave.js';
import { expectAllNotDetected, fetchGet, fetchWithTimeoutGet, rawLoop } from './lib/raw-loop.js';
import type { Sdk } from './lib/sdk.js';
import type { BenchServer } from './lib/server.js';
import { ratio, type Summary, summarize } from './lib/stats.js';

export interface ThroughputResult {
  readonly hashes: number;
  readonly concurrency: number;
  readonly requestsPerSecond: Readonly<Record<'raw' | 'rawTimeout' | 'sdk' | 'sdkDispatcher' | 'undici', Summary>>;
  /** SDK (default: fetch) throughput / raw fetch throughput, per round. Target >= 1.0. */
  readonly sdkOverRaw: Summary;
  /** SDK with the opt-in `dispatcher` (undici Agent) / raw fetch. */
  readonly sdkDispatcherOverRaw: Summary;
  /** SDK (fetch) / raw fetch with a per-request time-out: the like-for-like comparison. */
  readonly sdkOverRawTimeout: Summary;
  /** Raw fetch with a time-out / raw fetch: what the cancellation signal alone costs. */
  readonly rawTimeoutOverRaw: Summary;
  /** undici.request throughput / raw fetch throughput: the platform's floor. */
  readonly undiciOverRaw: Summary;
}

export async function throughput(sdk: Sdk, server: BenchServer, settings: Settings): Promise<ThroughputResult> {
  const { batch: n, concurrency, rounds } = settings;
  const clients = await batchClients(sdk, server);
  const { url, apiKey } = server;
  const run = (label: string, work: (hashes: string[]) => Promise<readonly { verdict: string }[]>) => async () => {
    const hashes = uniqueHashes(n);
    return time(async () => expectAllNotDetected(await work(hashes), label));
  };
  const contenders = {
    raw: run('raw', (hashes) => rawLoop(url, apiKey, hashes, concurrency, fetchGet)),
    sdk: run('sdk', (hashes) => clients.fetchClient.scanMany(hashes, { concurrency })),
    rawTimeout: run('rawTimeout', (hashes) => rawLoop(url, apiKey, hashes, concurrency, fetchWithTimeoutGet)),
    sdkDispatcher: run('sdkDispatcher', (hashes) => clients.dispatcherClient.scanMany(hashes, { concurrency })),
    undici: run('undici', (hashes) => rawLoop(url, apiKey, hashes, concurrency, clients.undiciGet)),
  };
  await interleave(1, contenders); // warm-up: connections, JIT
  const ms = await interleave(rounds, contenders);
  await clients.close();
  const rps = (values: number[]) =>
    summarize(
      values.map((value) => (n / value) * 1000),
      0,
    );
  return {
    hashes: n,
    concurrency,
    requestsPerSecond: {
      raw: rps(ms.raw),
      rawTimeout: rps(ms.rawTimeout),
      sdk: rps(ms.sdk),
      sdkDispatcher: rps(ms.sdkDispatcher),
      undici: rps(ms.undici),
    },
    sdkOverRaw: ratio(ms.raw, ms.sdk),
    sdkDispatcherOverRaw: ratio(ms.raw, ms.sdkDispatcher),
    sdkOverRawTimeout: ratio(ms.rawTimeout, ms.sdk),
    rawTimeoutOverRaw: ratio(ms.raw, ms.rawTimeout),
    undiciOverRaw: ratio(ms.raw, ms.undici),
  };
}
