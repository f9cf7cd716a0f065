import type { LimitCall } from '../limits/limit-call.js';
import type { Redactor } from '../secrets/redact.js';
import { callerAbortFailure, Deadline, overBudgetFailure } from '../transport/call/deadline.js';
import { sendFailureError } from './transport-failure.js';

/*
 * One budget per send, started in `send()`: the sending limits' check (a
 * Redis call with `fleet`) and the transport's attempts share it, so a slow
 * Redis never adds its own time-out to the caller's `totalTimeoutMs`.
 */

/** The limits check of a send under its `deadline` and `signal`; ending it early sends nothing (`not_sent`). */
export function limitCall(
  deadline: Deadline | undefined,
  signal: AbortSignal | undefined,
  redact: Redactor,
): LimitCall {
  return {
    deadline,
    signal,
    aborted: () =>
      sendFailureError({ ...callerAbortFailure(signal?.reason, redact), attempts: 0, phase: 'connect' }, false),
    // Only called with a deadline (without a budget there is nothing to spend).
    overBudget: () => sendFailureError(overBudgetFailure(deadline ?? new Deadline(0), 0, 'connect'), false),
  };
}
