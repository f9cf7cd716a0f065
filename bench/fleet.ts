/**
 * Fleet benchmarks (issue 13), side by side in one run, rounds interleaved:
 *
 * 1. Two replicas behind a load balancer on a workload with repeats: each
 *    with its own in-process cache vs both sharing Redis (Keyv + @keyv/redis)
 *    as a second level. Requests sent, wall time, CPU per lookup.
 * 2. A full outage (every answer a 503) with 1 000 calls from 50 concurrent
 *    callers: requests sent and time to answer every caller, without budget
 *    or breaker, with the retry budget, with budget and breaker (the defaults).
 *
 *   npm run bench:fleet            # full → bench/results.fleet.json
 *   npm run bench:fleet -- --quick # smaller → bench/.tmp/results.fleet.json
 *
 * Redis: REDIS_URL, else a throw-away redis-server when one is installed;
 * without either, part 1 reports only the separate caches.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import KeyvRedis from '@keyv/redis';
import Keyv from 'keyv';
import { hasRedisServer, startRedisServer } from '../test/helpers/redis-server.js';
import { BENCH_DIR, QUICK } from './lib/config.js';
import { type FaultResults, faultScenarios, faultTable } from './lib/fleet-faults.js';
import { type FleetService, startFleetService } from './lib/fleet-service.js';
import { type StoreResults, storeScenarios, storeTable } from './lib/fleet-store.js';
import { machine } from './lib/machine.js';
import { pool } from './lib/pool.js';
import { loadSdk, type Sdk } from './lib/sdk.js';
import { type Summary, summarize } from './lib/stats.js';

const API_KEY = 'fleet-bench-key';
const SECRET = 'fleet-bench-cache-secret-0123456789abcdef';

export interface FleetSettings {
  readonly rounds: number;
  /** Lookups over both replicas, and distinct hashes among them. */
  readonly lookups: number;
  readonly unique: number;
  /** Concurrent uploads per replica. */
  readonly concurrency: number;
  /** Simulated service latency, ms. */
  readonly latencyMs: number;
  readonly outageCalls: number;
  readonly outageCallers: number;
  /** Lookups of the partial-fault and soak scenarios (64 concurrent callers). */
  readonly faultLookups: number;
  /** Lookups of the slow- and dead-store scenarios (16 concurrent callers). */
  readonly storeLookups: number;
}

export const FLEET_SETTINGS: FleetSettings = QUICK
  ? {
      ...{ rounds: 1, lookups: 400, unique: 100, concurrency: 8, latencyMs: 5, outageCalls: 200, outageCallers: 20 },
      faultLookups: 500,
      storeLookups: 200,
    }
  : {
      ...{
        rounds: 3,
        lookups: 4_000,
        unique: 800,
        concurrency: 16,
        latencyMs: 10,
        outageCalls: 1_000,
        outageCallers: 50,
      },
      faultLookups: 20_000,
      storeLookups: 400,
    };

interface Measure {
  requests: number[];
  wallMs: number[];
  cpuMsPerLookup: number[];
  extra: number[];
}

interface FleetFigures {
  readonly requests: Summary;
  readonly wallMs: Summary;
  readonly cpuMsPerLookup: Summary;
  /** Sharing: store calls that failed or timed out; outage: calls answered CIRCUIT_OPEN. */
  readonly extra: Summary;
}

export interface FleetResults {
  readonly settings: FleetSettings;
  readonly faults: FaultResults;
  readonly store: StoreResults | undefined;
  readonly sharing: Record<string, FleetFigures>;
  readonly outage: Record<string, FleetFigures>;
  readonly redis: string;
}

/** A workload with repeats: `lookups` draws from `unique` hashes, popular ones more often (squared uniform). */
function workload(settings: FleetSettings, seed: number): string[] {
  let state = seed;
  const random = (): number => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  return Array.from({ length: settings.lookups }, () => {
    const index = Math.floor(random() ** 2 * settings.unique);
    return index.toString(16).padStart(64, 'c');
  });
}

async function measure(service: FleetService, run: () => Promise<void>): Promise<[number, number, number]> {
  service.requests = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return [service.requests, wall, (used.user + used.system) / 1000];
}

function record(
  into: Record<string, Measure>,
  name: string,
  [requests, wall, cpu, extra = 0]: number[],
  lookups: number,
): void {
  into[name] ??= { requests: [], wallMs: [], cpuMsPerLookup: [], extra: [] };
  into[name].extra.push(extra);
  into[name].requests.push(requests as number);
  into[name].wallMs.push(wall as number);
  into[name].cpuMsPerLookup.push((cpu as number) / lookups);
}

function summarizeAll(measures: Record<string, Measure>) {
  return Object.fromEntries(
    Object.entries(measures).map(([name, m]) => [
      name,
      {
        requests: summarize(m.requests, 0),
        wallMs: summarize(m.wallMs, 0),
        cpuMsPerLookup: summarize(m.cpuMsPerLookup, 4),
        extra: summarize(m.extra, 0),
      },
    ]),
  );
}

export async function fleet(sdk: Sdk, settings: FleetSettings = FLEET_SETTINGS): Promise<FleetResults> {
  const service = await startFleetService(settings.latencyMs);
  let redisUrl = process.env.REDIS_URL || undefined;
  const ownRedis = redisUrl === undefined && hasRedisServer() ? await startRedisServer() : undefined;
  redisUrl ??= ownRedis?.url;
  const connections: Keyv[] = [];
  const common = { apiKey: API_KEY, baseUrl: service.url };
  try {
    // 1. Two replicas, separate caches vs one shared Redis.
    const sharing: Record<string, Measure> = {};
    /** Each contender runs one round and returns the store calls that failed (timed out). */
    const contenders: Record<string, (round: number) => Promise<number>> = {
      'separate caches': async (round) => {
        const replicas = [new sdk.HashScanClient(common), new sdk.HashScanClient(common)];
        await runReplicas(replicas, workload(settings, round + 1), settings.concurrency);
        return 0;
      },
    };
    if (redisUrl !== undefined) {
      const url = redisUrl;
      const shared = async (round: number, storeTimeoutMs?: number): Promise<number> => {
        const namespace = randomUUID();
        const replicas = await Promise.all(
          [0, 1].map(async () => {
            const kv = new Keyv<string>({ store: new KeyvRedis<string>(url), namespace });
            kv.on('error', () => {});
            connections.push(kv);
            // Replicas are long-lived: connect before serving, as the README advises.
            await kv.get('warm-up');
            const cache = { store: kv, secret: SECRET, ...(storeTimeoutMs !== undefined && { storeTimeoutMs }) };
            return new sdk.HashScanClient({ ...common, cache });
          }),
        );
        await runReplicas(replicas, workload(settings, round + 1), settings.concurrency);
        return replicas.reduce((sum, replica) => sum + replica.stats().cache.storeErrors, 0);
      };
      contenders['shared Redis'] = (round) => shared(round);
      // The store bound is the price of a slow Redis: a loaded machine needs more than the default 50 ms.
      contenders['shared Redis, storeTimeoutMs 500'] = (round) => shared(round, 500);
    }
    for (let round = 0; round < settings.rounds; round++) {
      const names = Object.keys(contenders);
      for (let i = 0; i < names.length; i++) {
        const name = names[(i + round) % names.length] as string;
        let extra = 0;
        const run = contenders[name] as (round: number) => Promise<number>;
        const figures = await measure(service, async () => {
          extra = await run(round);
        });
        record(sharing, name, [...figures, extra], settings.lookups);
      }
    }

    // 2. Full outage.
    service.mode = 'down';
    const retry = { retries: 2, minDelayMs: 50, maxDelayMs: 400 };
    const outageContenders: Record<string, () => InstanceType<Sdk['HashScanClient']>> = {
      'no budget, no breaker': () =>
        new sdk.HashScanClient({ ...common, retry, cache: false, retryBudget: false, circuitBreaker: false }),
      'retry budget': () => new sdk.HashScanClient({ ...common, retry, cache: false, circuitBreaker: false }),
      'budget + breaker (defaults)': () => new sdk.HashScanClient({ ...common, retry, cache: false }),
    };
    const outage: Record<string, Measure> = {};
    const calls = Array.from({ length: settings.outageCalls }, (_, i) => i.toString(16).padStart(64, 'd'));
    for (let round = 0; round < settings.rounds; round++) {
      const names = Object.keys(outageContenders);
      for (let i = 0; i < names.length; i++) {
        const name = names[(i + round) % names.length] as string;
        const client = (outageContenders[name] as () => InstanceType<Sdk['HashScanClient']>)();
        let circuitOpen = 0;
        const figures = await measure(service, () =>
          pool(calls, settings.outageCallers, async (hash) => {
            const outcome = await client.scanOutcome(hash);
            if (outcome.verdict !== 'error') throw new Error('an outage must never answer a verdict');
            if (outcome.error.code === 'CIRCUIT_OPEN') circuitOpen += 1;
          }),
        );
        record(outage, name, [...figures, circuitOpen], settings.outageCalls);
      }
    }
    service.mode = 'up';
    const { rounds } = settings;
    const faults = await faultScenarios(sdk, { rounds, lookups: settings.faultLookups, concurrency: 64, latencyMs: 5 });
    const store = ownRedis
      ? await storeScenarios(sdk, {
          rounds,
          lookups: settings.storeLookups,
          concurrency: 16,
          latencyMs: 20,
          redisDelayMs: 200,
        })
      : undefined;
    return {
      settings,
      faults,
      store,
      sharing: summarizeAll(sharing),
      outage: summarizeAll(outage),
      redis:
        redisUrl === undefined ? 'none (shared contender skipped)' : ownRedis ? 'throw-away redis-server' : 'REDIS_URL',
    };
  } finally {
    await Promise.all(connections.map((kv) => kv.disconnect().catch(() => {})));
    await ownRedis?.stop();
    await service.close();
  }
}

/** The load balancer: alternate lookups go to each replica; each replica serves `concurrency` uploads at once. */
async function runReplicas(
  replicas: readonly InstanceType<Sdk['HashScanClient']>[],
  hashes: readonly string[],
  concurrency: number,
): Promise<void> {
  await Promise.all(
    replicas.map((replica, index) =>
      pool(
        hashes.filter((_, position) => position % replicas.length === index),
        concurrency,
        async (hash) => {
          const result = await replica.scan(hash);
          if (result.verdict !== 'not_detected') throw new Error(`unexpected verdict ${result.verdict}`);
        },
      ),
    ),
  );
}

/** The figures as a Markdown table (median, min–max over rounds). */
export function fleetTable(results: FleetResults): string {
  const cell = (s: Summary, unit = ''): string =>
    s.samples.length > 1 ? `${s.median}${unit} (${s.min}–${s.max})` : `${s.median}${unit}`;
  const rows = (title: string, part: FleetResults['sharing'], extra = ''): string[] => [
    `| ${title} | requests sent | wall time | CPU per lookup |${extra ? ` ${extra} |` : ''}`,
    `|---|---|---|---|${extra ? '---|' : ''}`,
    ...Object.entries(part).map(
      ([name, m]) =>
        `| ${name} | ${cell(m.requests)} | ${cell(m.wallMs, ' ms')} | ${cell(m.cpuMsPerLookup, ' ms')} |${extra ? ` ${cell(m.extra)} |` : ''}`,
    ),
  ];
  const s = results.settings;
  return [
    `Two replicas, ${s.lookups} lookups of ${s.unique} distinct hashes, ${s.concurrency} concurrent uploads per replica, service latency ${s.latencyMs} ms (Redis: ${results.redis}):`,
    '',
    ...rows('contender', results.sharing, 'store calls failed'),
    '',
    `Full outage (every answer HTTP 503 after ${s.latencyMs} ms), ${s.outageCalls} calls from ${s.outageCallers} concurrent callers, retry { retries: 2, minDelayMs: 50, maxDelayMs: 400 }:`,
    '',
    ...rows('client', results.outage, 'CIRCUIT_OPEN answers').map((line) =>
      line.replace('| wall time |', '| time to answer all callers |'),
    ),
    '',
    faultTable(results.faults),
    ...(results.store === undefined ? [] : ['', storeTable(results.store)]),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const results = await fleet(await loadSdk());
  const output = QUICK ? `${BENCH_DIR}.tmp/results.fleet.json` : `${BENCH_DIR}results.fleet.json`;
  await mkdir(dirname(output), { recursive: true });
  await writeFile(
    output,
    `${JSON.stringify({ date: new Date().toISOString(), machine: machine(), results }, null, 2)}\n`,
  );
  console.log(fleetTable(results));
  console.log(`\nwritten to ${output}`);
}
