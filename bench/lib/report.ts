import { type BatchMemoryResult, batchMemoryRows } from '../batch-memory.js';
import type { CacheHitsResult } from '../cache-hits.js';
import type { DuplicatesResult } from '../duplicates.js';
import type { SigningResult } from '../signing.js';
import type { SizeResult } from '../size.js';
import type { StartupResult } from '../startup.js';
import type { StreamingResult } from '../streaming.js';
import type { ThroughputResult } from '../throughput.js';
import type { Summary } from './stats.js';

/** Everything one run measured; each benchmark is absent when not selected. */
export interface Results {
  throughput?: ThroughputResult;
  duplicates?: DuplicatesResult;
  cacheHits?: CacheHitsResult;
  signing?: SigningResult;
  streaming?: StreamingResult;
  size?: SizeResult;
  startup?: StartupResult;
  batchMemory?: BatchMemoryResult;
}

type Row = [figure: string, value: string, range: string, target: string, met: string];

const spread = (s: Summary, unit = ''): string => `${s.min}${unit} – ${s.max}${unit}`;
const yes = (ok: boolean): string => (ok ? 'yes' : '**no**');
const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
const int = (value: number): string => Math.round(value).toLocaleString('en-US');

/** A ratio figure: median, spread over rounds and, when it has one, its target. */
function ratioRow(figure: string, s: Summary, target?: number): Row {
  const goal = target === undefined ? '' : `≥ ${target.toFixed(1)}×`;
  return [figure, `${s.median}×`, spread(s, '×'), goal, target === undefined ? '' : yes(s.median >= target)];
}

function rows(r: Results): Row[] {
  const out: Row[] = [];
  const t = r.throughput;
  if (t) {
    const rps = t.requestsPerSecond;
    const batch = `1. scanMany ${int(t.hashes)} unique, c=${t.concurrency}:`;
    out.push(ratioRow(`${batch} SDK (default, fetch) / raw fetch`, t.sdkOverRaw, 1));
    out.push(ratioRow('1. SDK with opt-in `dispatcher` (undici Agent) / raw fetch', t.sdkDispatcherOverRaw, 1));
    out.push(ratioRow('1. SDK (fetch) / raw fetch + per-request time-out', t.sdkOverRawTimeout));
    out.push(ratioRow('1. raw fetch + time-out / raw fetch', t.rawTimeoutOverRaw));
    out.push(ratioRow('1. undici.request / raw fetch (floor)', t.undiciOverRaw));
    const all = [rps.raw, rps.rawTimeout, rps.sdk, rps.sdkDispatcher, rps.undici];
    out.push([
      '1. req/s raw · raw+time-out · SDK · SDK+dispatcher · undici.request',
      all.map((x) => int(x.median)).join(' · '),
      '',
      '',
      '',
    ]);
  }
  const d = r.duplicates;
  if (d) {
    out.push(ratioRow(`2. ${int(d.hashes)} hashes, 50 % repeats: raw time / SDK (fetch) time`, d.sdkSpeedup, 1.8));
    out.push(ratioRow('2. raw time / SDK with `dispatcher` time', d.sdkDispatcherSpeedup, 1.8));
    const sent = [d.sdkRequests[0], d.sdkDispatcherRequests[0], d.rawRequests[0]].map((x) => int(x ?? 0)).join(' · ');
    out.push([
      '2. requests sent: SDK · SDK+dispatcher · raw (unique inputs)',
      `${sent} (${int(d.unique)})`,
      '',
      'SDK = unique',
      yes(d.requestsMatchUnique),
    ]);
  }
  const c = r.cacheHits;
  if (c) {
    out.push([
      '3. scan() on a warm cache: ops/s',
      int(c.opsPerSecond.median),
      `${int(c.opsPerSecond.min)} – ${int(c.opsPerSecond.max)}`,
      '≥ 500,000',
      yes(c.opsPerSecond.median >= 500_000),
    ]);
    out.push(['3. cache-hit latency p50 / p99', `${c.latencyUs.p50} µs / ${c.latencyUs.p99} µs`, '', '', '']);
  }
  const s = r.signing;
  if (s) {
    out.push([
      '4. computeSignature / vendor getRPCSignature (ops/s)',
      `${s.sdkOverVendor.median}×`,
      spread(s.sdkOverVendor, '×'),
      '≥ 1.0×, identical',
      yes(s.sdkOverVendor.median >= 1 && s.identicalOutput),
    ]);
    out.push([
      '4. signatures/s SDK · vendor',
      `${int(s.opsPerSecond.sdk.median)} · ${int(s.opsPerSecond.vendor.median)}`,
      '',
      '',
      `identical: ${s.identicalOutput}`,
    ]);
  }
  const m = r.streaming;
  if (m) {
    const runs = m.runs.map((run) => `${int(run.hashes)}: ${run.peakRssMb} MB`).join(' · ');
    const retained = m.runs.map((run) => `${run.retainedHeapMb} MB`).join(' · ');
    out.push([
      '5. scanIterable peak RSS (sampled every 5 ms)',
      runs,
      `difference ${m.peakDifferenceMb} MB (maxRSS ${m.maxRssDifferenceMb} MB)`,
      'no growth',
      '',
    ]);
    out.push([
      '5. growth above start RSS, difference · heap after GC',
      `${m.growthDifferenceMb} MB · ${retained}`,
      '',
      '< 16 MB · < 4 MB',
      // Start-up RSS alone varies by several MB, so the judgement uses growth and retained heap.
      yes(Math.abs(m.growthDifferenceMb) < 16 && m.retainedHeapDifferenceMb < 4),
    ]);
  }
  const z = r.size;
  if (z) {
    out.push([
      '6. bundle min+gzip ESM · CJS (SDK)',
      `${kib(z.sdk.esm.gzipBytes)} · ${kib(z.sdk.cjs.gzipBytes)}`,
      `vendor ${kib(z.vendor.esm.gzipBytes)} · ${kib(z.vendor.cjs.gzipBytes)}`,
      '',
      `vendor/SDK ${z.vendorOverSdk.esm}× · ${z.vendorOverSdk.cjs}×`,
    ]);
  }
  const u = r.startup;
  if (u) {
    out.push([
      '6. cold import() ms SDK · vendor',
      `${u.importMs.sdk.median} · ${u.importMs.vendor.median}`,
      `SDK ${spread(u.importMs.sdk)}`,
      '',
      `vendor/SDK ${u.vendorOverSdk.median}×`,
    ]);
  }
  if (r.batchMemory) out.push(...batchMemoryRows(r.batchMemory));
  return out;
}

/**
 * The figures as a Markdown table (median, then min – max over rounds). Quick
 * runs (tiny inputs, CI) only prove the benchmarks work: they judge nothing.
 */
export function table(results: Results, judge = true): string {
  const lines = ['| Figure | Median | Min – max | Target | Met |', '|---|---|---|---|---|'];
  for (const row of rows(results)) {
    if (!judge && row[4] !== '') row[4] = 'not judged (quick)';
    lines.push(`| ${row.join(' | ')} |`);
  }
  return lines.join('\n');
}
