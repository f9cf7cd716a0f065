/** Benchmark 3: scan() answered from a warm cache: operations per second and per-call latency. */
import type { Settings } from './lib/config.js';
import { uniqueHashes } from './lib/hashes.js';
import { collectGarbage, measure } from './lib/interleave.js';
import type { Sdk } from './lib/sdk.js';
import type { BenchServer } from './lib/server.js';
import { percentile, type Summary, summarize } from './lib/stats.js';

export interface CacheHitsResult {
  readonly warmEntries: number;
  readonly operationsPerRound: number;
  /** Calls per second of wall time (moves with the neighbours' load). */
  readonly opsPerSecond: Summary;
  /** Calls per second of this process's CPU time: the steady figure on a shared machine. Target >= 500 000. */
  readonly opsPerCpuSecond: Summary;
  /** Per-call latency over one timed pass, in microseconds. */
  readonly latencyUs: { readonly p50: number; readonly p99: number; readonly max: number };
  readonly requestsDuringRounds: number;
}

export async function cacheHits(sdk: Sdk, server: BenchServer, settings: Settings): Promise<CacheHitsResult> {
  const { cacheWarm, cacheOps, rounds } = settings;
  const client = new sdk.HashScanClient({
    baseUrl: server.url,
    apiKey: server.apiKey,
    cache: { max: cacheWarm, ttlMs: 3_600_000, notDetectedTtlMs: 3_600_000 },
  });
  const hashes = uniqueHashes(cacheWarm);
  await client.scanMany(hashes, { concurrency: 64 });
  await server.reset();

  const opsPerSecond: number[] = [];
  const opsPerCpuSecond: number[] = [];
  for (let round = 0; round < rounds + 1; round++) {
    collectGarbage();
    const { ms, cpuUs } = await measure(async () => {
      for (let i = 0; i < cacheOps; i++) await client.scan(hashes[i % cacheWarm] as string);
    });
    if (round === 0) continue; // round 0 warms the JIT
    opsPerSecond.push(cacheOps / (ms / 1000));
    opsPerCpuSecond.push(cacheOps / (cpuUs / 1e6));
  }

  collectGarbage();
  const latencies = new Float64Array(Math.min(cacheOps, 200_000));
  for (let i = 0; i < latencies.length; i++) {
    const started = performance.now();
    await client.scan(hashes[i % cacheWarm] as string);
    latencies[i] = (performance.now() - started) * 1000;
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    warmEntries: cacheWarm,
    operationsPerRound: cacheOps,
    opsPerSecond: summarize(opsPerSecond, 0),
    opsPerCpuSecond: summarize(opsPerCpuSecond, 0),
    latencyUs: {
      p50: Number(percentile(sorted, 0.5).toFixed(3)),
      p99: Number(percentile(sorted, 0.99).toFixed(3)),
      max: Number(percentile(sorted, 1).toFixed(3)),
    },
    requestsDuringRounds: await server.lookups(),
  };
}
