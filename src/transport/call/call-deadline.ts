/* A call's budget as a point in time (see `deadline.ts` for what ends a call past it). */

/**
 * `totalTimeoutMs`: one budget for a whole call, every attempt and back-off
 * included. It costs no signal: the transport checks it between attempts,
 * caps each attempt's own time-out by what is left, and gives up on a
 * back-off that would end past it.
 */
export class Deadline {
  /** The whole budget, in ms. */
  readonly totalMs: number;
  readonly #end: number;

  constructor(totalMs: number, now: number = performance.now()) {
    this.totalMs = totalMs;
    this.#end = now + totalMs;
  }

  /** Milliseconds left, 0 once past. */
  remaining(now: number = performance.now()): number {
    return Math.max(0, Math.ceil(this.#end - now));
  }

  get expired(): boolean {
    return this.remaining() === 0;
  }
}
