import { wholeNumber } from '../../config/numbers.js';
import { ConfigurationError } from '../../errors/configuration-error.js';

/**
 * Retry settings for transient failures. Delays grow exponentially
 * (`minDelayMs * 2^n`, capped at `maxDelayMs`) with jitter, and a
 * `Retry-After` header is honoured when it fits within `maxDelayMs`.
 *
 * @example
 * ```ts
 * { retry: { retries: 4, minDelayMs: 250 } } // up to 5 attempts
 * { retry: false }                           // a single attempt
 * ```
 */
export interface RetryOptions {
  /** Retries after the first attempt. @defaultValue 2 */
  readonly retries?: number | undefined;
  /** Base delay before the first retry, in ms. @defaultValue 500 */
  readonly minDelayMs?: number | undefined;
  /** Upper bound of any delay, including one asked for by `Retry-After`, in ms. @defaultValue 8000 */
  readonly maxDelayMs?: number | undefined;
}

/** Retry settings with every default filled in. */
export interface ResolvedRetry {
  readonly retries: number;
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: ResolvedRetry = Object.freeze({ retries: 2, minDelayMs: 500, maxDelayMs: 8000 });

/** Fills in defaults and checks ranges; `false` means no retry at all. */
export function resolveRetry(options: RetryOptions | false | undefined): ResolvedRetry {
  if (options === false) return { ...DEFAULT_RETRY, retries: 0 };
  if (options === undefined) return DEFAULT_RETRY;
  const resolved = {
    retries: wholeNumber(options.retries, 'retry.retries', DEFAULT_RETRY.retries, {
      min: 0,
      max: Number.MAX_SAFE_INTEGER,
    }),
    minDelayMs: wholeNumber(options.minDelayMs, 'retry.minDelayMs', DEFAULT_RETRY.minDelayMs, {
      min: 0,
      max: Number.MAX_SAFE_INTEGER,
    }),
    maxDelayMs: wholeNumber(options.maxDelayMs, 'retry.maxDelayMs', DEFAULT_RETRY.maxDelayMs, {
      min: 0,
      max: Number.MAX_SAFE_INTEGER,
    }),
  };
  if (resolved.maxDelayMs < resolved.minDelayMs) {
    throw new ConfigurationError('retry.maxDelayMs', 'must be >= retry.minDelayMs');
  }
  return resolved;
}

/**
 * The wait before retry number `retriesDone + 1`, or `undefined` when the
 * server asked (via `Retry-After`) for longer than `maxDelayMs`: retrying
 * sooner than it asked is pointless, waiting longer breaks the caller's budget.
 *
 * "Equal jitter": half the exponential step is fixed, half random, so waits
 * never collapse to zero yet concurrent clients spread out.
 */
export function retryDelay(
  retriesDone: number,
  retryAfterMs: number | undefined,
  retry: ResolvedRetry,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterMs !== undefined && retryAfterMs > retry.maxDelayMs) return undefined;
  const step = Math.min(retry.maxDelayMs, retry.minDelayMs * 2 ** retriesDone);
  const jittered = Math.round(step / 2 + (random() * step) / 2);
  return Math.min(retry.maxDelayMs, Math.max(jittered, retryAfterMs ?? 0));
}
