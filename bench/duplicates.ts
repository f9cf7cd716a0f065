/**
 * Benchmark 2: half the inputs repeat. The competitor is the careful loop a
 * user writes after reading the spec: de-duplicate with a `Set`, send each
 * distinct hash once (time-out, parse, shape checks), answer every input. The
 * loop that sends every repeat stays as a second line.
 */
import { batchClients } from './lib/clients.js';
import type { Settings } from './lib/config.js';
import { type ContenderFigures, contest, type Lookup } from './lib/contest.js';
import { halfRepeated } from './lib/hashes.js';
import { carefulGet, deduplicated, rawLoop } from './lib/raw-loop.js';
import type { Sdk } from './lib/sdk.js';
import type { BenchServer } from './lib/server.js';
import type { Summary } from './lib/stats.js';

type Contender = 'deduped' | 'sendAll' | 'sdk' | 'sdkDispatcher';

export interface DuplicatesResult {
  readonly hashes: number;
  readonly unique: number;
  readonly concurrency: number;
  /** Inputs/s and CPU µs per input of every contender. */
  readonly contenders: Readonly<Record<Contender, ContenderFigures>>;
  /** Requests each contender sent, per round; the SDK's and the de-duplicating loop's must equal `unique`. */
  readonly requests: Readonly<Record<Contender, readonly number[]>>;
  readonly requestsMatchUnique: boolean;
  /** SDK (fetch) throughput / de-duplicating careful loop throughput. */
  readonly sdkOverDeduped: Summary;
  /** SDK CPU per input / the de-duplicating loop's. */
  readonly sdkCpuOverDeduped: Summary;
  /** SDK with `dispatcher` / de-duplicating loop, throughput. */
  readonly sdkDispatcherOverDeduped: Summary;
  /** SDK (fetch) / the careful loop that sends every repeat, throughput. */
  readonly sdkOverSendAll: Summary;
}

export async function duplicates(sdk: Sdk, server: BenchServer, settings: Settings): Promise<DuplicatesResult> {
  const { batch: n, concurrency, rounds } = settings;
  const clients = await batchClients(sdk, server);
  const { url, apiKey } = server;
  let unique = 0;
  const contenders: Record<Contender, Lookup> = {
    deduped: (hashes) => deduplicated(hashes, (unique) => rawLoop(url, apiKey, unique, concurrency, carefulGet)),
    sdk: (hashes) => clients.fetchClient.scanMany(hashes, { concurrency }),
    sendAll: (hashes) => rawLoop(url, apiKey, hashes, concurrency, carefulGet),
    sdkDispatcher: (hashes) => clients.dispatcherClient.scanMany(hashes, { concurrency }),
  };
  const requests: Record<Contender, number[]> = { deduped: [], sendAll: [], sdk: [], sdkDispatcher: [] };
  const result = await contest(contenders, {
    rounds,
    warmUp: settings.warmUp,
    n,
    inputs: () => {
      const input = halfRepeated(n);
      unique = input.unique;
      return input.hashes;
    },
    before: () => server.reset(),
    after: async (name) => {
      requests[name as Contender].push(await server.lookups());
    },
  });
  await clients.close();
  const { speed, cpu } = result;
  return {
    hashes: n,
    unique,
    concurrency,
    contenders: result.figures,
    requests,
    requestsMatchUnique: [...requests.sdk, ...requests.sdkDispatcher, ...requests.deduped].every(
      (count) => count === unique,
    ),
    sdkOverDeduped: speed('sdk', 'deduped'),
    sdkCpuOverDeduped: cpu('sdk', 'deduped'),
    sdkDispatcherOverDeduped: speed('sdkDispatcher', 'deduped'),
    sdkOverSendAll: speed('sdk', 'sendAll'),
  };
}
