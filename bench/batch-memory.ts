/**
 * Benchmark 7: peak RSS of `scanMany` over a large batch of unique hashes,
 * against hand-written loops keeping the same results (fetch, the same pool,
 * every answer checked): `raw` is the bare fetch loop, `rawTimeout` adds the
 * per-request time-out a production loop needs (an AbortController per
 * request, as the SDK has), `kyTimeout` is that loop written with ky. Each
 * run is a fresh process; the order of the variants rotates round by round.
 * Standalone:
 *   npm run bench:memory [-- --quick] [-- --hashes=N --rounds=N]   → bench/results.memory.json
 * (about half an hour at 500,000 hashes, so not part of `npm run bench`).
 * (The children run with --expose-gc, only to measure the heap the results retain after the peak.)
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { nodeJson } from './lib/child.js';
import { BENCH_DIR, QUICK } from './lib/config.js';
import { machine } from './lib/machine.js';
import { type BenchServer, startServer } from './lib/server.js';
import { type Summary, summarize } from './lib/stats.js';

interface ChildReport {
  readonly count: number;
  readonly outcomes: number;
  readonly notDetected: number;
  readonly durationMs: number;
  readonly startRssMb: number;
  readonly peakRssMb: number;
  readonly retainedHeapMb: number;
}

const VARIANTS = { sdk: 'sdk', raw: 'raw', rawTimeout: 'raw-timeout', kyTimeout: 'ky-timeout' } as const;
type Variant = keyof typeof VARIANTS;
type PerVariant<T> = { readonly [K in Variant]: T };

export interface BatchMemoryResult {
  readonly hashes: number;
  readonly concurrency: number;
  readonly rounds: number;
  /** Peak RSS (sampled every 5 ms), MB. */
  readonly peakRssMb: PerVariant<Summary>;
  /** Peak minus RSS before the first lookup, MB. */
  readonly growthMb: PerVariant<Summary>;
  /** Heap in use after a full GC with every outcome still held: what the results themselves cost, MB. */
  readonly retainedHeapMb: PerVariant<Summary>;
  /** Per-round SDK peak / bare-loop peak: at most 1 is the target. */
  readonly sdkOverRaw: Summary;
  /** Per-round SDK peak / peak of the loop with a per-request time-out. */
  readonly sdkOverRawTimeout: Summary;
  /** Per-round SDK peak / peak of the ky loop with the same time-out. */
  readonly sdkOverKyTimeout: Summary;
}

const argument = (name: string): number | undefined => {
  const value = process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  return value === undefined ? undefined : Number(value);
};

const perVariant = <T>(make: () => T): { [K in Variant]: T } => ({
  sdk: make(),
  raw: make(),
  rawTimeout: make(),
  kyTimeout: make(),
});

export async function batchMemory(
  server: BenchServer,
  {
    concurrency = 64,
    hashes = argument('hashes') ?? (QUICK ? 2_000 : 500_000),
    rounds = argument('rounds') ?? (QUICK ? 1 : 3),
  } = {},
): Promise<BatchMemoryResult> {
  const peak = perVariant<number[]>(() => []);
  const growth = perVariant<number[]>(() => []);
  const retained = perVariant<number[]>(() => []);
  const names = Object.keys(VARIANTS) as Variant[];
  for (let round = 0; round < rounds; round++) {
    // Rotate the order, so a drift of the machine's load hits every variant alike.
    const order = names.map((_, i) => names[(i + round) % names.length] as Variant);
    for (const variant of order) {
      const report = await nodeJson<ChildReport>([
        '--expose-gc',
        '--import',
        'tsx',
        'bench/batch-memory-child.ts',
        VARIANTS[variant],
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
  const mb = (samples: PerVariant<number[]>): PerVariant<Summary> => ({
    sdk: summarize(samples.sdk, 1),
    raw: summarize(samples.raw, 1),
    rawTimeout: summarize(samples.rawTimeout, 1),
    kyTimeout: summarize(samples.kyTimeout, 1),
  });
  const over = (other: readonly number[]): Summary =>
    summarize(
      peak.sdk.map((value, i) => value / (other[i] as number)),
      3,
    );
  return {
    hashes,
    concurrency,
    rounds,
    peakRssMb: mb(peak),
    growthMb: mb(growth),
    retainedHeapMb: mb(retained),
    sdkOverRaw: over(peak.raw),
    sdkOverRawTimeout: over(peak.rawTimeout),
    sdkOverKyTimeout: over(peak.kyTimeout),
  };
}

type Row = [figure: string, value: string, range: string, target: string, met: string];

const four = (s: PerVariant<Summary>): string =>
  `${s.sdk.median} · ${s.raw.median} · ${s.rawTimeout.median} · ${s.kyTimeout.median} MB`;

/** Report rows (same columns as bench/lib/report.ts). */
export function batchMemoryRows(m: BatchMemoryResult): Row[] {
  const n = m.hashes.toLocaleString('en-US');
  const p = m.peakRssMb;
  return [
    [
      `7. scanMany ${n} unique, c=${m.concurrency}: peak RSS SDK · loop · loop + time-out · ky loop + time-out`,
      four(p),
      `SDK ${p.sdk.min} – ${p.sdk.max} · loop ${p.raw.min} – ${p.raw.max} · loop + time-out ${p.rawTimeout.min} – ${p.rawTimeout.max} · ky loop ${p.kyTimeout.min} – ${p.kyTimeout.max}`,
      '',
      '',
    ],
    [
      '7. heap held after the run and one GC: SDK · loop · loop + time-out · ky loop + time-out',
      four(m.retainedHeapMb),
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
    [
      '7. peak RSS SDK / loop with a per-request time-out',
      `${m.sdkOverRawTimeout.median}×`,
      `${m.sdkOverRawTimeout.min}× – ${m.sdkOverRawTimeout.max}×`,
      '',
      '',
    ],
    [
      '7. peak RSS SDK / ky loop with the same time-out',
      `${m.sdkOverKyTimeout.median}×`,
      `${m.sdkOverKyTimeout.min}× – ${m.sdkOverKyTimeout.max}×`,
      '',
      '',
    ],
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = await startServer();
  try {
    const result = await batchMemory(server);
    // A run takes half an hour at 500,000 hashes: its own results file, like the fleet's.
    const output = QUICK ? `${BENCH_DIR}.tmp/results.memory.json` : `${BENCH_DIR}results.memory.json`;
    await mkdir(dirname(output), { recursive: true });
    await writeFile(
      output,
      `${JSON.stringify({ date: new Date().toISOString(), machine: machine(), result }, null, 2)}\n`,
    );
    for (const row of batchMemoryRows(result)) console.log(`| ${row.join(' | ')} |`);
    console.log(`\nwritten to ${output}`);
  } finally {
    await server.close();
  }
}
