import { SmsError } from '../errors/sms-error.js';
import type { TransportFailure } from '../transport/call/exchange.js';
import { isTransientStatus } from '../transport/http/retry-after.js';

/**
 * Turns a transport failure into the send's error. Only a failure in the
 * `connect` phase proves the request never left; a time-out, a broken
 * connection or an abort in flight leaves the outcome unknown.
 */
export function sendFailureError(failure: TransportFailure, mayHaveSent: boolean): SmsError {
  const reached = failure.phase === 'unknown';
  const outcome = reached || mayHaveSent ? 'unknown' : 'not_sent';
  if (failure.code === 'RESPONSE_TOO_LARGE') {
    // The service answered, so the request reached it: the message may have gone out.
    return new SmsError({
      code: 'INVALID_RESPONSE',
      outcome: 'unknown',
      message: `${failure.message}; the message may have been sent`,
      attempts: failure.attempts,
      ...(failure.status !== undefined && { status: failure.status }),
      issues: ['body: larger than maxResponseBytes'],
    });
  }
  if (failure.code === 'TIMEOUT' && failure.budgetSpent === true) {
    return new SmsError({
      code: 'TIMEOUT',
      outcome,
      message: `${failure.message}; ${outcome === 'unknown' ? 'the message may have been sent' : 'nothing was sent'}`,
      cause: failure.cause,
      attempts: failure.attempts,
      ...(failure.retryAfterMs !== undefined && { retryAfterMs: failure.retryAfterMs }),
    });
  }
  if (failure.code === 'ABORTED' || failure.code === 'CIRCUIT_OPEN') {
    return new SmsError({
      code: failure.code,
      outcome,
      message: failure.message,
      cause: failure.cause,
      attempts: failure.attempts,
    });
  }
  return new SmsError({
    code: reached ? 'OUTCOME_UNKNOWN' : 'NETWORK',
    outcome,
    message: reached ? `${failure.message}; the message may have been sent` : `${failure.message}; nothing was sent`,
    cause: failure.cause,
    attempts: failure.attempts,
  });
}

/**
 * Whether a failed attempt is sent again. Sends are not idempotent: by
 * default only a request that surely never left (`NETWORK`) is re-sent.
 * With `retryUnknownOutcome`, time-outs, broken connections and transient
 * HTTP statuses are re-sent too. Service error codes, unreadable answers and
 * aborts never are.
 */
export function isRetryableSend(error: unknown, retryUnknownOutcome: boolean): boolean {
  if (!(error instanceof SmsError)) return false;
  if (error.code === 'NETWORK') return true;
  if (!retryUnknownOutcome) return false;
  return error.code === 'OUTCOME_UNKNOWN' || (error.code === 'HTTP_STATUS' && isTransientStatus(error.status));
}
