/** Benchmark 2: half the inputs repeat: the SDK sends each distinct hash once, the raw loop sends all. */
import { batchClients } from './lib/clients.js';
import type { Settings } from './lib/config.js';
import { halfRepeated } from './lib/hashes.js';
import { interleave, time } from './lib/interleave.js';
import { expectAllNotDetected, fetchGet, rawLoop } from './lib/raw-loop.js';
import type { Sdk } from './lib/sdk.js';
import type { BenchServer } from './lib/server.js';
import { ratio, type Summary } from './lib/stats.js';

export interface DuplicatesResult {
  readonly hashes: number;
  readonly unique: number;
  readonly concurrency: number;
  /** Requests the SDK (default transport) sent in each round; must equal `unique`. */
  readonly sdkRequests: readonly number[];
  readonly sdkDispatcherRequests: readonly number[];
  readonly rawRequests: readonly number[];
  readonly requestsMatchUnique: boolean;
  /** Raw loop time / SDK time, per round. Target >= 1.8. */
  readonly sdkSpeedup: Summary;
  /** Raw loop time / time of the SDK on the opt-in undici dispatcher. */
  readonly sdkDispatcherSpeedup: Summary;
}

export async function duplicates(sdk: Sdk, server: BenchServer, settings: Settings): Promise<DuplicatesResult> {
  const { batch: n, concurrency, rounds } = settings;
  const clients = await batchClients(sdk, server);
  const requests: Record<'raw' | 'sdk' | 'sdkDispatcher', number[]> = { raw: [], sdk: [], sdkDispatcher: [] };
  let unique = 0;
  const counted =
    (label: keyof typeof requests, work: (hashes: string[]) => Promise<readonly { verdict: string }[]>) =>
    async (): Promise<number> => {
      const input = halfRepeated(n);
      unique = input.unique;
      await server.reset();
      const ms = await time(async () => expectAllNotDetected(await work(input.hashes), label));
      requests[label].push(await server.lookups());
      return ms;
    };
  const contenders = {
    raw: counted('raw', (hashes) => rawLoop(server.url, server.apiKey, hashes, concurrency, fetchGet)),
    sdk: counted('sdk', (hashes) => clients.fetchClient.scanMany(hashes, { concurrency })),
    sdkDispatcher: counted('sdkDispatcher', (hashes) => clients.dispatcherClient.scanMany(hashes, { concurrency })),
  };
  await interleave(1, contenders);
  for (const log of Object.values(requests)) log.length = 0;
  const ms = await interleave(rounds, contenders);
  await clients.close();
  return {
    hashes: n,
    unique,
    concurrency,
    sdkRequests: requests.sdk,
    sdkDispatcherRequests: requests.sdkDispatcher,
    rawRequests: requests.raw,
    requestsMatchUnique: [...requests.sdk, ...requests.sdkDispatcher].every((count) => count === unique),
    sdkSpeedup: ratio(ms.raw, ms.sdk),
    sdkDispatcherSpeedup: ratio(ms.raw, ms.sdkDispatcher),
  };
}
