import { HashScanError } from '../errors/hashscan-error.js';
import type { TransportFailure } from '../transport/call/exchange.js';

/**
 * Turns a transport failure into the lookup's error. A body over
 * `maxResponseBytes` is no answer the spec describes: `INVALID_RESPONSE`
 * (not retried). The others keep their code.
 */
export function scanFailureError(failure: TransportFailure, hash: string): HashScanError {
  const { code, message, cause, attempts } = failure;
  if (code === 'RESPONSE_TOO_LARGE') {
    return new HashScanError({
      code: 'INVALID_RESPONSE',
      message,
      hash,
      attempts,
      ...(failure.status !== undefined && { status: failure.status }),
      issues: ['body: larger than maxResponseBytes'],
    });
  }
  const { retryAfterMs } = failure;
  return new HashScanError({
    code,
    message,
    cause,
    attempts,
    hash,
    ...(retryAfterMs !== undefined && { retryAfterMs }),
  });
}
