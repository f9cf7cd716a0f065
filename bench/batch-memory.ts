/**
 * Benchmark 7: peak RSS of `scanMany` over a large batch of unique hashes,
 * against a hand-written loop (fetch, the same pool, every answer checked)
 * keeping the same results. Each run is a fresh process; variants alternate
 * round by round. Standalone:
 *   npm run build && node --import tsx bench/batch-memory.ts [--quick] [--hashes=N] [--rounds=N]
 * (The children run with --expose-gc, only to measure the heap the results retain after the peak.)
 */
import { pathToFileURL } from 'node:url';
import { nodeJson } from './lib/child.js';
import { QUICK } from './lib/config.js';
import { type BenchServer, startServer } from './lib/server.js';
import { type Summary, summarize } from './lib/stats.js';

interface ChildReport {
  readonly variant: string;
  readonly count: number;
  readonly outcomes: number;
  readonly notDetected: number;
  readonly durationMs: number;
  readonly startRssMb: number;
  readonly peakRssMb: number;
  readonly maxRssMb: number;
  readonly retainedHeapMb: number;
}

export interface BatchMemoryResult {
  readonly hashes: number;
  readonly concurrency: number;
  readonly rounds: number;
  /** Peak RSS (sampled every 5 ms) of `scanMany` and of the hand-written loop, MB. */
  readonly peakRssMb: { readonly sdk: Summary; readonly raw: Summary };
  /** Peak minus RSS before the first lookup, MB. */
  readonly growthMb: { readonly sdk: Summary; readonly raw: Summary };
  /** Heap in use after a full GC with every outcome still held: what the results themselves cost, MB. */
  readonly retainedHeapMb: { readonly sdk: Summary; readonly raw: Summary };
  /** Per-round SDK peak / raw peak: at most 1 is the target. */
  readonly sdkOverRaw: Summary;
}

const argument = (name: string): number | undefined => {
  const value = process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  return value === undefined ? undefined : Number(value);
};

export async function batchMemory(
  server: BenchServer,
  {
    concurrency = 64,
    hashes = argument('hashes') ?? (QUICK ? 5_000 : 500_000),
    rounds = argument('rounds') ?? (QUICK ? 1 : 3),
  } = {},
): Promise<BatchMemoryResult> {
  const peak = { sdk: [] as number[], raw: [] as number[] };
  const growth = { sdk: [] as number[], raw: [] as number[] };
  const retained = { sdk: [] as number[], raw: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    // Alternate which variant goes first, so a drift of the machine's load hits both alike.
    const order = round % 2 === 0 ? (['sdk', 'raw'] as const) : (['raw', 'sdk'] as const);
    for (const variant of order) {
      const report = await nodeJson<ChildReport>([
        '--expose-gc',
        '--import',
        'tsx',
        'bench/batch-memory-child.ts',
        variant,
        server.url,
        server.apiKey,
        String(hashes),
        String(concurrency),
      ]);
      if (report.outcomes !== hashes || report.notDetected !== hashes) {
        throw new Error(`batch memory ${variant}: ${report.notDetected} of ${report.outcomes} not_detected`);
      }
      peak[variant].push(report.peakRssMb);
      growth[variant].push(report.peakRssMb - report.startRssMb);
      retained[variant].push(report.retainedHeapMb);
      console.error(
        `batch memory ${variant} round ${round + 1}: peak ${report.peakRssMb.toFixed(0)} MB, ${(report.durationMs / 1000).toFixed(1)} s`,
      );
    }
  }
  return {
    hashes,
    concurrency,
    rounds,
    peakRssMb: { sdk: summarize(peak.sdk, 1), raw: summarize(peak.raw, 1) },
    growthMb: { sdk: summarize(growth.sdk, 1), raw: summarize(growth.raw, 1) },
    retainedHeapMb: { sdk: summarize(retained.sdk, 1), raw: summarize(retained.raw, 1) },
    sdkOverRaw: summarize(
      peak.sdk.map((value, i) => value / (peak.raw[i] as number)),
      3,
    ),
  };
}

type Row = [figure: string, value: string, range: string, target: string, met: string];

/** Report rows (same columns as bench/lib/report.ts). */
export function batchMemoryRows(m: BatchMemoryResult): Row[] {
  const n = m.hashes.toLocaleString('en-US');
  return [
    [
      `7. scanMany ${n} unique, c=${m.concurrency}: peak RSS SDK · hand-written loop`,
      `${m.peakRssMb.sdk.median} MB · ${m.peakRssMb.raw.median} MB`,
      `SDK ${m.peakRssMb.sdk.min} – ${m.peakRssMb.sdk.max} · loop ${m.peakRssMb.raw.min} – ${m.peakRssMb.raw.max}`,
      '',
      '',
    ],
    [
      '7. heap held by the results after GC: SDK · hand-written loop',
      `${m.retainedHeapMb.sdk.median} MB · ${m.retainedHeapMb.raw.median} MB`,
      '',
      '',
      '',
    ],
    [
      '7. peak RSS SDK / hand-written loop',
      `${m.sdkOverRaw.median}×`,
      `${m.sdkOverRaw.min}× – ${m.sdkOverRaw.max}×`,
      '≤ 1.0×',
      m.sdkOverRaw.median <= 1 ? 'yes' : '**no**',
    ],
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = await startServer();
  try {
    const result = await batchMemory(server);
    console.log(JSON.stringify(result, null, 2));
    for (const row of batchMemoryRows(result)) console.log(`| ${row.join(' | ')} |`);
  } finally {
    await server.close();
  }
}
