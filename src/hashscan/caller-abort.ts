import { HashScanError } from '../errors/hashscan-error.js';
import { describeTimeout, isTimeoutReason } from '../transport/call/deadline.js';

/**
 * The error of a caller who stopped waiting: `TIMEOUT` when the signal's
 * reason is a `TimeoutError` (its `totalTimeoutMs`, or `AbortSignal.timeout()`),
 * else `ABORTED`.
 */
export function callerAbortError(hash: string, attempts: number, reason: unknown): HashScanError {
  if (isTimeoutReason(reason)) {
    return new HashScanError({ code: 'TIMEOUT', message: describeTimeout(reason), hash, attempts });
  }
  return new HashScanError({ code: 'ABORTED', message: 'the lookup was aborted by the caller', hash, attempts });
}
