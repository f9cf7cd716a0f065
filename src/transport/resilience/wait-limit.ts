/*
 * Every wait before an attempt (a `Retry-After` pause, the `rateLimit`, the
 * fleet's pause and quota) is bounded twice: by a cap of its own, and by
 * what is left of the call's budget. A wait that cannot end before the
 * budget does is not slept: the call ends at once, nothing sent.
 */

/** What holds an attempt back: the client's own pause or limit, or the fleet's. */
export type WaitKind = 'pause' | 'rate-limit' | 'fleet-pause' | 'fleet-quota';

/** The call an attempt belongs to, as the gates see it: its budget, and how it ends when a wait cannot fit. */
export interface WaitLimit {
  /** The call's budget (its ms left); `undefined` when it has none (the caps alone bound the wait). */
  readonly deadline: { remaining(): number } | undefined;
  /** The client's error ending the call at once: a wait of `waitMs` would end past the budget (or past its cap). */
  readonly refuse: (waitMs: number, kind: WaitKind) => Error;
}

/**
 * The refusal of a wait of `waitMs` that would end past the budget, or
 * `undefined` when it fits (or there is no budget).
 */
export function refusedWait(limit: WaitLimit | undefined, waitMs: number, kind: WaitKind): Error | undefined {
  const deadline = limit?.deadline;
  if (deadline === undefined || waitMs <= 0 || waitMs < deadline.remaining()) return undefined;
  return limit?.refuse(Math.ceil(waitMs), kind);
}
