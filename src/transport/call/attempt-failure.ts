import { type Redactor, redactError } from '../../secrets/redact.js';
import { ResponseTooLargeError } from '../http/body-limit.js';
import { classifyNetworkFailure } from '../http/network-failure.js';
import { callerAbortFailure } from './deadline.js';
import type { TransportFailure } from './exchange.js';

/** How an attempt that got no complete response ended. */
export interface AttemptEnd {
  /** Its own time-out fired. */
  readonly timedOut: boolean;
  /** The attempt's time-out setting, for the message. */
  readonly timeoutMs: number;
  /** The caller's abort reason, if the caller aborted. */
  readonly reason: unknown;
  readonly callerAborted: boolean;
  readonly redact: Redactor;
}

/**
 * The transport failure of one attempt: its time-out, a body over
 * `maxResponseBytes`, the caller's abort, or a network failure (with the
 * phase it reached), every message and cause redacted.
 */
export function attemptFailure(error: unknown, attempts: number, end: AttemptEnd): TransportFailure {
  const { redact } = end;
  if (end.timedOut) {
    return {
      code: 'TIMEOUT',
      message: `no complete response within ${end.timeoutMs} ms`,
      cause: undefined,
      attempts,
      phase: 'unknown',
    };
  }
  if (error instanceof ResponseTooLargeError) return tooLargeFailure(error, attempts);
  const network = classifyNetworkFailure(error);
  if (end.callerAborted) {
    return {
      ...callerAbortFailure(end.reason, redact),
      cause: undefined,
      attempts,
      // A connect failure that lost the race with the abort still proves nothing was sent.
      phase: network.phase,
    };
  }
  return {
    code: 'NETWORK',
    message: redact(network.description),
    cause: redactError(error, redact),
    attempts,
    phase: network.phase,
  };
}

/** The failure of an attempt whose body was too large. The server answered: whatever the request did, it did. */
function tooLargeFailure(error: ResponseTooLargeError, attempts: number): TransportFailure {
  return {
    code: 'RESPONSE_TOO_LARGE',
    message: error.message,
    cause: undefined,
    attempts,
    phase: 'unknown',
    status: error.status,
  };
}
