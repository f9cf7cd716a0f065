/** Benchmark 5: peak RSS of scanIterable over two input sizes, each in a fresh process. */
import { nodeJson } from './lib/child.js';
import type { Settings } from './lib/config.js';
import type { BenchServer } from './lib/server.js';

interface ChildReport {
  readonly count: number;
  readonly seen: number;
  readonly notDetected: number;
  readonly durationMs: number;
  readonly startRssMb: number;
  readonly peakRssMb: number;
  readonly maxRssMb: number;
  readonly retainedHeapMb: number;
}

export interface StreamingRun {
  readonly hashes: number;
  readonly peakRssMb: number;
  readonly maxRssMb: number;
  /** Peak RSS minus RSS before the first lookup. */
  readonly growthMb: number;
  /** Heap in use after a full GC at the end: grows with the input only if something leaks. */
  readonly retainedHeapMb: number;
  readonly hashesPerSecond: number;
}

export interface StreamingResult {
  readonly concurrency: number;
  readonly runs: readonly StreamingRun[];
  /** Peak RSS of the largest run minus that of the smallest; ~0 when memory does not grow with input. */
  readonly peakDifferenceMb: number;
  readonly maxRssDifferenceMb: number;
  /** The same for the growth above each run's starting RSS (start-up RSS itself varies by a few MB). */
  readonly growthDifferenceMb: number;
  /** Heap still in use after a full GC, largest run minus smallest: a leak shows here first. */
  readonly retainedHeapDifferenceMb: number;
}

const mb = (value: number): number => Number(value.toFixed(1));

export async function streaming(server: BenchServer, settings: Settings): Promise<StreamingResult> {
  const { concurrency } = settings;
  const runs: StreamingRun[] = [];
  for (const size of settings.streamSizes) {
    const report = await nodeJson<ChildReport>([
      '--expose-gc',
      '--import',
      'tsx',
      'bench/streaming-child.ts',
      server.url,
      server.apiKey,
      String(size),
      String(concurrency),
    ]);
    if (report.seen !== size || report.notDetected !== size) {
      throw new Error(`streaming ${size}: ${report.notDetected} of ${report.seen} not_detected`);
    }
    runs.push({
      hashes: size,
      peakRssMb: mb(report.peakRssMb),
      maxRssMb: mb(report.maxRssMb),
      growthMb: mb(report.peakRssMb - report.startRssMb),
      retainedHeapMb: mb(report.retainedHeapMb),
      hashesPerSecond: Math.round((size / report.durationMs) * 1000),
    });
  }
  const first = runs[0] as StreamingRun;
  const last = runs[runs.length - 1] as StreamingRun;
  return {
    concurrency,
    runs,
    peakDifferenceMb: mb(last.peakRssMb - first.peakRssMb),
    maxRssDifferenceMb: mb(last.maxRssMb - first.maxRssMb),
    growthDifferenceMb: mb(last.growthMb - first.growthMb),
    retainedHeapDifferenceMb: mb(last.retainedHeapMb - first.retainedHeapMb),
  };
}
