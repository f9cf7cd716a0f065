import type { CacheHitsResult } from '../cache-hits.js';
import type { DuplicatesResult } from '../duplicates.js';
import type { SigningResult } from '../signing.js';
import type { SizeResult } from '../size.js';
import type { StartupResult } from '../startup.js';
import type { StreamingResult } from '../streaming.js';
import type { ThroughputResult } from '../throughput.js';
import type { ContenderFigures } from './contest.js';
import type { Summary } from './stats.js';

/** Everything one run measured; each benchmark is absent when not selected. */
export interface Results {
  throughput?: ThroughputResult;
  remote?: ThroughputResult;
  duplicates?: DuplicatesResult;
  cacheHits?: CacheHitsResult;
  signing?: SigningResult;
  streaming?: StreamingResult;
  size?: SizeResult;
  startup?: StartupResult;
}

type Row = [figure: string, value: string, range: string, target: string, met: string];

const spread = (s: Summary, unit = ''): string => `${s.min}${unit} – ${s.max}${unit}`;
const yes = (ok: boolean): string => (ok ? 'yes' : '**no**');
const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
const int = (value: number): string => Math.round(value).toLocaleString('en-US');

/** A ratio figure: median, spread over rounds and, when it has one, its target (`>=` or `<=`). */
function ratioRow(figure: string, s: Summary, target?: { atLeast?: number; atMost?: number }): Row {
  if (target === undefined) return [figure, `${s.median}×`, spread(s, '×'), '', ''];
  const { atLeast, atMost } = target;
  const goal = atLeast !== undefined ? `≥ ${atLeast}×` : `≤ ${atMost}×`;
  const met = atLeast !== undefined ? s.median >= atLeast : s.median <= (atMost as number);
  return [figure, `${s.median}×`, spread(s, '×'), goal, yes(met)];
}

/** Round-to-round spread of a contender, (max − min) / median, wall time and CPU: the run's noise. */
function noiseRow(figure: string, f: ContenderFigures | undefined): Row[] {
  if (f === undefined) return [];
  const pct = (s: Summary): string => `±${(((s.max - s.min) / s.median) * 50).toFixed(1)} %`;
  return [[figure, `wall ${pct(f.perSecond)} · CPU ${pct(f.cpuUs)}`, '', '', '']];
}

function throughputRows(t: ThroughputResult, id: string): Row[] {
  const local = t.serverDelayMs === 0;
  const head = `${id}. ${int(t.hashes)} unique, c=${t.concurrency}, server ${local ? 'at once' : `+${t.serverDelayMs} ms`}:`;
  const out: Row[] = [
    ratioRow(`${head} SDK CPU/request ÷ hand-written ky loop`, t.sdkCpuOverKy, local ? { atMost: 1.1 } : undefined),
    ratioRow(`${id}. SDK CPU/request ÷ careful fetch loop`, t.sdkCpuOverCareful, local ? { atMost: 1.3 } : undefined),
    ratioRow(`${id}. SDK throughput ÷ careful fetch loop`, t.sdkOverCareful, local ? undefined : { atLeast: 1.0 }),
    ratioRow(
      `${id}. SDK + \`dispatcher\` throughput ÷ \`undici.request\` loop`,
      t.sdkDispatcherOverUndici,
      local ? { atLeast: 0.95 } : undefined,
    ),
    ratioRow(`${id}. SDK + \`dispatcher\` throughput ÷ careful fetch loop`, t.sdkDispatcherOverCareful),
    ratioRow(`${id}. ky loop CPU ÷ careful fetch loop CPU (ky's own cost)`, t.kyCpuOverCareful),
    ratioRow(`${id}. careful loop CPU ÷ bare loop CPU (the time-out signal)`, t.carefulCpuOverBare),
  ];
  if (t.sdkOverBefore && t.sdkCpuOverBefore) {
    out.push(ratioRow(`${id}. SDK now ÷ SDK before (same run): throughput`, t.sdkOverBefore));
    out.push(ratioRow(`${id}. SDK now ÷ SDK before (same run): CPU/request`, t.sdkCpuOverBefore));
  }
  if (t.sdkDispatcherOverBefore && t.sdkDispatcherCpuOverBefore) {
    out.push(ratioRow(`${id}. SDK + \`dispatcher\` now ÷ before: throughput`, t.sdkDispatcherOverBefore));
    out.push(ratioRow(`${id}. SDK + \`dispatcher\` now ÷ before: CPU/request`, t.sdkDispatcherCpuOverBefore));
  }
  out.push(...noiseRow(`${id}. noise: careful loop's spread over rounds`, t.contenders.careful));
  return out;
}

function duplicatesRows(d: DuplicatesResult): Row[] {
  const sent = (['sdk', 'sdkDispatcher', 'deduped', 'sendAll'] as const)
    .map((name) => int(d.requests[name][0] ?? 0))
    .join(' · ');
  return [
    ratioRow(
      `2. ${int(d.hashes)} hashes, 50 % repeats: SDK throughput ÷ careful loop de-duplicating with a Set`,
      d.sdkOverDeduped,
    ),
    ratioRow('2. SDK CPU/input ÷ de-duplicating loop', d.sdkCpuOverDeduped),
    ratioRow('2. SDK + `dispatcher` throughput ÷ de-duplicating loop', d.sdkDispatcherOverDeduped),
    ratioRow('2. SDK throughput ÷ careful loop sending every repeat', d.sdkOverSendAll),
    [
      '2. requests sent: SDK · SDK+dispatcher · Set loop · send-all (unique inputs)',
      `${sent} (${int(d.unique)})`,
      '',
      'SDK = unique',
      yes(d.requestsMatchUnique),
    ],
    ...noiseRow("2. noise: de-duplicating loop's spread over rounds", d.contenders.deduped),
  ];
}

function cacheRows(c: CacheHitsResult): Row[] {
  return [
    [
      '3. scan() on a warm cache: calls per CPU-second',
      int(c.opsPerCpuSecond.median),
      `${int(c.opsPerCpuSecond.min)} – ${int(c.opsPerCpuSecond.max)}`,
      '≥ 500,000',
      yes(c.opsPerCpuSecond.median >= 500_000),
    ],
    [
      '3. scan() on a warm cache: calls per wall-second',
      int(c.opsPerSecond.median),
      `${int(c.opsPerSecond.min)} – ${int(c.opsPerSecond.max)}`,
      '',
      '',
    ],
    ['3. cache-hit latency p50 / p99', `${c.latencyUs.p50} µs / ${c.latencyUs.p99} µs`, '', '', ''],
  ];
}

function signingRows(s: SigningResult): Row[] {
  return [
    [
      '4. computeSignature ÷ vendor getRPCSignature, signatures per CPU-second',
      `${s.sdkOverVendorCpu.median}×`,
      spread(s.sdkOverVendorCpu, '×'),
      '≥ 1.5×, identical',
      yes(s.sdkOverVendorCpu.median >= 1.5 && s.identicalOutput),
    ],
    ratioRow('4. the same per wall-second', s.sdkOverVendor),
    [
      '4. signatures/s SDK · vendor',
      `${int(s.opsPerSecond.sdk.median)} · ${int(s.opsPerSecond.vendor.median)}`,
      '',
      '',
      `identical: ${s.identicalOutput}`,
    ],
  ];
}

function streamingRows(m: StreamingResult): Row[] {
  const runs = m.runs.map((run) => `${int(run.hashes)}: ${run.peakRssMb} MB`).join(' · ');
  const retained = m.runs.map((run) => `${run.retainedHeapMb} MB`).join(' · ');
  return [
    [
      '5. scanIterable peak RSS (sampled every 5 ms)',
      runs,
      `difference ${m.peakDifferenceMb} MB (maxRSS ${m.maxRssDifferenceMb} MB)`,
      'no growth',
      '',
    ],
    [
      '5. growth above start RSS, difference · heap after GC',
      `${m.growthDifferenceMb} MB · ${retained}`,
      '',
      '< 16 MB · < 4 MB',
      // Start-up RSS alone varies by several MB, so the judgement uses growth and retained heap.
      yes(Math.abs(m.growthDifferenceMb) < 16 && m.retainedHeapDifferenceMb < 4),
    ],
  ];
}

function sizeRows(z: SizeResult): Row[] {
  return [
    [
      '6. bundle min+gzip ESM · CJS (SDK)',
      `${kib(z.sdk.esm.gzipBytes)} · ${kib(z.sdk.cjs.gzipBytes)}`,
      `vendor ${kib(z.vendor.esm.gzipBytes)} · ${kib(z.vendor.cjs.gzipBytes)}`,
      '',
      `vendor/SDK ${z.vendorOverSdk.esm}× · ${z.vendorOverSdk.cjs}×`,
    ],
  ];
}

function startupRows(u: StartupResult): Row[] {
  return [
    [
      '6. cold import() ms SDK · vendor',
      `${u.importMs.sdk.median} · ${u.importMs.vendor.median}`,
      `SDK ${spread(u.importMs.sdk)}`,
      '',
      `vendor/SDK ${u.vendorOverSdk.median}×`,
    ],
  ];
}

/**
 * The rows of each benchmark, in table order. A new benchmark adds its result
 * to {@link Results} and one entry here.
 */
const SECTIONS: { readonly [K in keyof Results]-?: (result: NonNullable<Results[K]>) => Row[] } = {
  throughput: (t) => throughputRows(t, '1'),
  remote: (t) => throughputRows(t, '1b'),
  duplicates: duplicatesRows,
  cacheHits: cacheRows,
  signing: signingRows,
  streaming: streamingRows,
  size: sizeRows,
  startup: startupRows,
};

function rows(results: Results): Row[] {
  return (Object.keys(SECTIONS) as (keyof Results)[]).flatMap((name) => {
    const result = results[name];
    const section = SECTIONS[name] as (result: unknown) => Row[];
    return result === undefined ? [] : section(result);
  });
}

/** Requests/s and CPU per request of every contender of the lookup runs. */
function contenderTable(results: Results): string[] {
  const runs: [string, Readonly<Partial<Record<string, ContenderFigures>>> | undefined][] = [
    ['1', results.throughput?.contenders],
    ['1b', results.remote?.contenders],
    ['2', results.duplicates?.contenders],
  ];
  const lines = ['| Run | Contender | Per second | Min – max | CPU µs each | Min – max |', '|---|---|---|---|---|---|'];
  for (const [id, contenders] of runs) {
    for (const [name, f] of Object.entries(contenders ?? {})) {
      if (f === undefined) continue;
      const { perSecond: p, cpuUs: c } = f;
      lines.push(
        `| ${id} | ${name} | ${int(p.median)} | ${int(p.min)} – ${int(p.max)} | ${c.median} | ${c.min} – ${c.max} |`,
      );
    }
  }
  return lines.length > 2 ? ['', ...lines] : [];
}

/**
 * The figures as Markdown tables (median, then min – max over rounds). Quick
 * runs (tiny inputs, CI) only prove the benchmarks work: they judge nothing.
 */
export function table(results: Results, judge = true): string {
  const lines = ['| Figure | Median | Min – max | Target | Met |', '|---|---|---|---|---|'];
  for (const row of rows(results)) {
    if (!judge && row[4] !== '') row[4] = 'not judged (quick)';
    lines.push(`| ${row.join(' | ')} |`);
  }
  return [...lines, ...contenderTable(results)].join('\n');
}
