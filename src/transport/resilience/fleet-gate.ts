import type { AbortLike } from '../../util/abort-like.js';
import type { WaitLimit } from './wait-limit.js';

/**
 * The rate gate's one hook to state shared with other replicas (see
 * `src/fleet/`): a wait before each attempt and a report of each `429`'s
 * `Retry-After`. The transport knows nothing else of the fleet; an
 * implementation must fail open (never reject but with `onAbort()`) when its
 * shared store is down or slow.
 */
export interface FleetGate {
  /**
   * Resolves when the fleet lets an attempt start (no fleet-wide pause in
   * force, the fleet quota has room); `undefined` when nothing holds it.
   * Rejects only with `onAbort()`, when `signal` aborts during the wait, or
   * with `limit.refuse()`, at once, when the wait cannot end within the
   * call's budget.
   */
  pass(signal: AbortLike | undefined, onAbort: () => Error, limit?: WaitLimit): Promise<void> | undefined;
  /** A `429` asked every caller to wait `ms`: tell the fleet (never throws, never waits). */
  pause(ms: number): void;
}
