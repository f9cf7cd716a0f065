/**
 * Fleet benchmark, part 4: a slow and a dead Redis behind `cache.store`
 * (issue 21). What does a failing store cost each lookup, and does it come
 * back? Keyv 5 + `@keyv/redis` 5 (node-redis) on a throw-away `redis-server`.
 */
import { randomUUID } from 'node:crypto';
import KeyvRedis from '@keyv/redis';
import Keyv from 'keyv';
import { startDelayProxy } from '../../test/helpers/delay-proxy.js';
import { redisActivity } from '../../test/helpers/redis-activity.js';
import { type RedisServer, startRedisServer } from '../../test/helpers/redis-server.js';
import { startFleetService } from './fleet-service.js';
import { pool } from './pool.js';
import type { Sdk } from './sdk.js';
import { type Summary, summarize } from './stats.js';

export interface StoreSettings {
  readonly rounds: number;
  readonly lookups: number;
  readonly concurrency: number;
  readonly latencyMs: number;
  readonly redisDelayMs: number;
}

export interface StoreResults {
  readonly settings: StoreSettings;
  /** Median lookup latency (ms) per contender, over rounds. */
  readonly slow: Record<string, { readonly medianMs: Summary; readonly storeCallsPerLookup: Summary }>;
  /** Redis stopped, then started again, per connection setting. */
  readonly down: Record<
    string,
    {
      /** Store calls per lookup once the back-off engaged (while Redis was down). */
      readonly storeCallsPerLookup: number;
      readonly storeSkipped: number;
      /** GET and SET commands Redis ran right after it came back, before any new lookup: replayed ones. */
      readonly replayedCommands: number;
      /** From Redis accepting connections to lookups using the store again, ms. */
      readonly backInUseMs: number | undefined;
    }
  >;
}

const SECRET = 'fleet-bench-cache-secret-0123456789abcdef';
type Client = InstanceType<Sdk['HashScanClient']>;

/** A Keyv store on node-redis: the README's settings (no offline queue, errors thrown) or node-redis defaults. */
function keyv(url: string, readme: boolean, opened: Keyv[]) {
  const redis = readme
    ? new KeyvRedis<string>({ url, disableOfflineQueue: true }, { throwOnErrors: true })
    : new KeyvRedis<string>(url);
  redis.on('error', () => {});
  const kv = new Keyv<string>({ store: redis, namespace: randomUUID(), throwOnErrors: readme });
  kv.on('error', () => {});
  opened.push(kv);
  let calls = 0;
  const store = {
    get: (key: string) => {
      calls += 1;
      return kv.get(key);
    },
    set: (key: string, value: string, ttl?: number) => {
      calls += 1;
      return kv.set(key, value, ttl);
    },
    delete: (key: string) => kv.delete(key),
  };
  return { store, calls: () => calls, ready: () => (redis.client as { isReady?: boolean }).isReady === true };
}

async function until(condition: () => boolean | Promise<boolean>, limitMs: number): Promise<number | undefined> {
  const started = performance.now();
  while (!(await condition())) {
    if (performance.now() - started > limitMs) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return performance.now() - started;
}

async function lookUp(client: Client, hashes: readonly string[], concurrency: number, latencies?: number[]) {
  await pool(hashes, concurrency, async (hash) => {
    const started = performance.now();
    const result = await client.scan(hash);
    latencies?.push(performance.now() - started);
    if (result.verdict !== 'not_detected') throw new Error(`unexpected verdict ${result.verdict}`);
  });
}

const hashes = (count: number, tag: string): string[] =>
  Array.from({ length: count }, (_, i) => `${tag}${i.toString(16)}`.padStart(64, 'f'));

export async function storeScenarios(sdk: Sdk, settings: StoreSettings): Promise<StoreResults> {
  const service = await startFleetService(settings.latencyMs);
  const opened: Keyv[] = [];
  let redis: RedisServer = await startRedisServer();
  const proxy = await startDelayProxy(redis.port, settings.redisDelayMs);
  const common = { apiKey: 'store-bench-key', baseUrl: service.url };
  try {
    // 1. Slow Redis vs no store: median lookup latency.
    const slow: Record<string, { medians: number[]; perLookup: number[] }> = {};
    const contenders: Record<string, () => Promise<{ client: Client; calls: () => number }>> = {
      'no store': async () => ({ client: new sdk.HashScanClient(common), calls: () => 0 }),
      [`Redis ${settings.redisDelayMs} ms slow`]: async () => {
        const kv = keyv(`redis://127.0.0.1:${proxy.port}`, true, opened);
        await kv.store.get('warm-up');
        const client = new sdk.HashScanClient({ ...common, cache: { store: kv.store, secret: SECRET } });
        return { client, calls: kv.calls };
      },
    };
    for (let round = 0; round < settings.rounds; round++) {
      const names = Object.keys(contenders);
      for (let i = 0; i < names.length; i++) {
        const name = names[(i + round) % names.length] as string;
        const { client, calls } = await (contenders[name] as () => Promise<{ client: Client; calls: () => number }>)();
        const before = calls();
        const latencies: number[] = [];
        await lookUp(client, hashes(settings.lookups, `${round}`), settings.concurrency, latencies);
        slow[name] ??= { medians: [], perLookup: [] };
        const entry = slow[name];
        entry.medians.push(summarize(latencies, 2).median);
        entry.perLookup.push((calls() - before) / settings.lookups);
      }
    }

    // 2. Redis stopped, then back.
    const down: StoreResults['down'] = {};
    for (const [index, [name, readme]] of [
      ['README settings (disableOfflineQueue, throwOnErrors)', true],
      ['node-redis and Keyv defaults', false],
    ].entries() as IterableIterator<[number, readonly [string, boolean]]>) {
      const kv = keyv(redis.url, readme, opened);
      await kv.store.get('warm-up');
      let benchedAt = -1;
      const client = new sdk.HashScanClient({
        ...common,
        cache: { store: kv.store, secret: SECRET },
        logger: {
          structured: true,
          debug: () => {},
          info: () => {},
          warn: (_message, fields) => {
            if (fields?.state === 'skipping' && benchedAt < 0) benchedAt = kv.calls();
          },
          error: () => {},
        },
      });
      await lookUp(client, hashes(16, `a${index}`), settings.concurrency);
      await redis.stop();
      await until(() => !kv.ready(), 15_000); // the client has noticed: commands go to its offline path
      const during = hashes(settings.lookups, `b${index}`);
      await lookUp(client, during, settings.concurrency);
      const afterBench = benchedAt < 0 ? kv.calls() : kv.calls() - benchedAt;
      redis = await startRedisServer(redis.port);
      const back = performance.now();
      await until(kv.ready, 15_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const replayed = await redisActivity(redis.url);
      const replayedCommands = replayed.gets + replayed.sets;
      let round = 0;
      const inUse = await until(async () => {
        const stats = client.stats().cache;
        if (!stats.storeSkipping && (await redisActivity(redis.url)).keys > replayed.keys) return true;
        await lookUp(client, hashes(4, `c${index}${round++}`), 4);
        return false;
      }, 30_000);
      down[name] = {
        storeCallsPerLookup: Number((afterBench / during.length).toFixed(3)),
        storeSkipped: client.stats().cache.storeSkipped,
        replayedCommands,
        backInUseMs: inUse === undefined ? undefined : Math.round(performance.now() - back),
      };
    }
    return {
      settings,
      slow: Object.fromEntries(
        Object.entries(slow).map(([name, e]) => [
          name,
          { medianMs: summarize(e.medians, 2), storeCallsPerLookup: summarize(e.perLookup, 3) },
        ]),
      ),
      down,
    };
  } finally {
    await Promise.all(opened.map((kv) => kv.disconnect().catch(() => {})));
    await proxy.close();
    await redis.stop();
    await service.close();
  }
}

/** The figures as Markdown tables. */
export function storeTable(results: StoreResults): string {
  const cell = (s: Summary, unit = ''): string =>
    s.samples.length > 1 ? `${s.median}${unit} (${s.min}–${s.max})` : `${s.median}${unit}`;
  const s = results.settings;
  return [
    `Shared store: ${s.lookups} lookups of distinct hashes from ${s.concurrency} concurrent callers, service latency ${s.latencyMs} ms, default \`storeTimeoutMs\` (50 ms); Redis slowed by a proxy holding each answer ${s.redisDelayMs} ms:`,
    '',
    '| store | median lookup | store calls per lookup |',
    '|---|---|---|',
    ...Object.entries(results.slow).map(
      ([name, f]) => `| ${name} | ${cell(f.medianMs, ' ms')} | ${cell(f.storeCallsPerLookup)} |`,
    ),
    '',
    `Redis stopped during ${s.lookups} lookups, then started again on the same port:`,
    '',
    '| connection | store calls per lookup once benched | calls skipped | commands replayed on return | store in use again after |',
    '|---|---|---|---|---|',
    ...Object.entries(results.down).map(
      ([name, f]) =>
        `| ${name} | ${f.storeCallsPerLookup} | ${f.storeSkipped} | ${f.replayedCommands} | ${f.backInUseMs === undefined ? 'not within 30 s' : `${f.backInUseMs} ms`} |`,
    ),
  ].join('\n');
}
