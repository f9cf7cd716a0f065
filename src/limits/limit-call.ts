import type { AbortLike } from '../util/abort-like.js';
import type { CallBound } from './shared-counts.js';

/*
 * The send a limits check belongs to: the check runs under the send's
 * budget and signal, never past them (issue 28: no wait beyond the budget).
 */

/**
 * The send a check belongs to: its budget (started before the check, so the
 * check and the send share it), its signal, and how it ends before anything
 * was sent.
 */
export interface LimitCall {
  readonly deadline: { remaining(): number } | undefined;
  readonly signal: AbortLike | undefined;
  /** The client's error for a caller abort (nothing sent). */
  readonly aborted: () => Error;
  /** The client's error for a budget spent before the send could start (nothing sent). */
  readonly overBudget: () => Error;
}

/**
 * `admit()` within `call`: refused at once when the call already ended;
 * bounded by what is left of its budget and by its signal (a take cut short
 * is in doubt: it may still run in Redis, never "not taken"); and when the
 * call ended meanwhile, what was admitted goes back (`undo`) and it ends.
 */
export async function admitWithin<A>(
  call: LimitCall | undefined,
  admit: (bound: CallBound | undefined) => Promise<A>,
  undo: (admitted: A) => void,
): Promise<A> {
  if (call === undefined) return admit(undefined);
  const early = endedBy(call);
  if (early !== undefined) throw early;
  const admitted = await admit({ remainingMs: call.deadline?.remaining(), signal: call.signal });
  const late = endedBy(call);
  if (late === undefined) return admitted;
  undo(admitted);
  throw late;
}

/** The error ending `call` now (aborted, or its budget spent), or `undefined` while it may go on. */
function endedBy(call: LimitCall): Error | undefined {
  if (call.signal?.aborted) return call.aborted();
  if (call.deadline !== undefined && call.deadline.remaining() === 0) return call.overBudget();
  return undefined;
}
