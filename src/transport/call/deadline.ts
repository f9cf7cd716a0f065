import { type Redactor, redactError } from '../../secrets/redact.js';
import { type AbortLike, SharedAbort } from '../../util/abort-like.js';
import type { FailurePhase } from '../http/network-failure.js';
import { Deadline } from './call-deadline.js';
import type { TransportFailure } from './exchange.js';

export { Deadline };

/** Whether `value` is a budget `setTimeout` can wait: a whole number of ms from 1 to 2147483647. */
export function isBudgetMs(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= 2_147_483_647;
}

/** A deadline starting now, or none when there is no budget. */
export function startDeadline(totalMs: number | undefined): Deadline | undefined {
  return totalMs === undefined ? undefined : new Deadline(totalMs);
}

/**
 * Whether an abort reason means "time is up": a `TimeoutError`, as
 * `AbortSignal.timeout()` gives. A caller's signal that aborts this way is
 * reported as a time-out, not as an abort.
 */
export function isTimeoutReason(reason: unknown): boolean {
  return (
    typeof reason === 'object' &&
    reason !== null &&
    (reason as { name?: unknown }).name === 'TimeoutError' &&
    reason instanceof Error
  );
}

const budgetReasons = new WeakSet<object>();

/** The reason a per-call budget aborts with: a `TimeoutError`, like `AbortSignal.timeout()`'s. */
function budgetExceeded(totalMs: number): DOMException {
  const reason = new DOMException(`no complete response within totalTimeoutMs (${totalMs} ms)`, 'TimeoutError');
  budgetReasons.add(reason);
  return reason;
}

/** What a time-out reason says: a per-call budget names itself; any other `TimeoutError` is the caller's signal. */
export function describeTimeout(reason: unknown): string {
  if (typeof reason === 'object' && reason !== null && budgetReasons.has(reason)) return (reason as Error).message;
  return "the caller's signal timed out";
}

/** A caller's signal, plus a per-call budget that aborts it with a `TimeoutError` (one timer, no `AbortSignal`). */
export interface BudgetSignal {
  readonly signal: AbortLike | undefined;
  /** Clears the timer and detaches from the caller's signal; call once the call settled. */
  readonly dispose: () => void;
}

/**
 * Follows `outer` and aborts with {@link budgetExceeded} after `totalMs`.
 * Without a budget, `outer` itself is returned and nothing is allocated.
 */
export function withBudget(outer: AbortLike | undefined, totalMs: number | undefined): BudgetSignal {
  if (totalMs === undefined) return { signal: outer, dispose: () => undefined };
  const inner = new SharedAbort();
  const follow = (): void => inner.abort(outer?.reason);
  const timer = setTimeout(() => inner.abort(budgetExceeded(totalMs)), totalMs);
  if (outer?.aborted) follow();
  else outer?.addEventListener('abort', follow, { once: true });
  return {
    signal: inner,
    dispose: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', follow);
    },
  };
}

/** The call's budget ran out: during an attempt (`unknown`) or before one could start (`connect`). */
export function overBudgetFailure(deadline: Deadline, attempts: number, phase: FailurePhase): TransportFailure {
  const tries = `${attempts} attempt${attempts === 1 ? '' : 's'}`;
  return {
    code: 'TIMEOUT',
    message: `no complete response within totalTimeoutMs (${deadline.totalMs} ms; ${tries})`,
    cause: undefined,
    attempts,
    phase,
    budgetSpent: true,
  };
}

/** What each kind of wait is called in a message. */
const WAIT_NAMES = {
  pause: "a Retry-After pause of the service's",
  'rate-limit': 'the rateLimit',
  'fleet-pause': "the fleet's pause",
  'fleet-quota': "the fleet's rateLimit quota",
} as const;

/**
 * The call ends before an attempt: a wait of `waitMs` for `kind` would end
 * past its budget (or past the wait's own cap, without a budget). Nothing
 * more was sent; `retryAfterMs` says when to come back.
 */
export function waitPastBudgetFailure(
  deadline: Deadline | undefined,
  attempts: number,
  waitMs: number,
  kind: keyof typeof WAIT_NAMES,
): TransportFailure {
  const past = deadline === undefined ? 'past its cap' : `past what is left of totalTimeoutMs (${deadline.totalMs} ms)`;
  return {
    code: 'TIMEOUT',
    message: `${WAIT_NAMES[kind]} holds attempts for ${waitMs} ms, ${past}; nothing more was sent`,
    cause: undefined,
    attempts,
    phase: 'connect',
    budgetSpent: true,
    retryAfterMs: waitMs,
  };
}

/** A caller's abort: `TIMEOUT` when its reason is a `TimeoutError` (e.g. `AbortSignal.timeout()`), else `ABORTED`. */
export function callerAbortFailure(
  reason: unknown,
  redact: Redactor,
): Pick<TransportFailure, 'code' | 'message' | 'cause' | 'budgetSpent'> {
  const cause = reason instanceof Error ? redactError(reason, redact) : undefined;
  if (isTimeoutReason(reason)) return { code: 'TIMEOUT', message: describeTimeout(reason), cause, budgetSpent: true };
  return { code: 'ABORTED', message: 'the request was aborted by the caller', cause };
}
