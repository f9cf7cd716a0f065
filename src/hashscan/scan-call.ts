import { optionalMs } from '../config/numbers.js';
import { batchSettings } from './batch.js';
import type { ScanOptions } from './scan-options.js';

/*
 * One resolution path for the per-call options of a lookup: `scan`,
 * `scanOutcome`, `scanFile`, `scanMany` and `scanIterable` all read their
 * `ScanOptions` here, so none can drop one the others honour.
 */

/**
 * Every per-call option of `scan`, checked: one field per key of
 * {@link ScanOptions} (a new option there fails to compile here until it is
 * resolved, and so reaches every method at once).
 */
export type ScanCall = { readonly [K in keyof Required<ScanOptions>]: ScanOptions[K] };

/** Checks the per-call options of a lookup. @throws {ConfigurationError} naming the option. */
export function resolveScanCall(options: ScanOptions | undefined): ScanCall {
  return {
    signal: options?.signal,
    totalTimeoutMs: optionalMs(options?.totalTimeoutMs, 'totalTimeoutMs'),
  };
}

/** A batch's options: its per-call options (as `scan` reads them, for each lookup), `concurrency` and `onProgress`, checked. */
export function batchCall<P>(
  options: ScanOptions & { readonly concurrency?: number | undefined; readonly onProgress?: P | undefined },
): ScanCall & { readonly concurrency: number; readonly onProgress: P | undefined } {
  const call = resolveScanCall(options);
  return { ...call, concurrency: batchSettings(options).concurrency, onProgress: options.onProgress };
}
