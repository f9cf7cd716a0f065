/**
 * Outcomes over a sliding time window, kept in a ring of buckets (no entry
 * per outcome), plus the subjects (hashes) already counted as failures in
 * that window, so one deterministic failure repeated by many callers counts
 * once: the memory of the circuit breaker and of the outside stores' back-off (`store/`).
 * Imports nothing.
 *
 * The clock is passed in by the caller (`performance.now()`), so fake timers apply.
 */

/** Buckets the window is cut into: coarser forgets in steps, finer costs more per read. */
const BUCKETS = 10;
/** Most subjects remembered per window; past it the oldest are forgotten (a bound on memory, not a rule). */
const MAX_SUBJECTS = 10_000;

export class OutcomeWindow {
  readonly #bucketMs: number;
  readonly #windowMs: number;
  /** Start time (in bucket units) of each slot, and its counts. */
  readonly #starts = new Float64Array(BUCKETS).fill(Number.NEGATIVE_INFINITY);
  readonly #calls = new Uint32Array(BUCKETS);
  readonly #failures = new Uint32Array(BUCKETS);
  /** Subject → when it was counted; insertion order is time order (re-counted ones are moved to the end). */
  readonly #counted = new Map<string, number>();

  constructor(windowMs: number) {
    this.#windowMs = windowMs;
    this.#bucketMs = Math.max(1, windowMs / BUCKETS);
  }

  /**
   * Records one call's outcome; returns `false` (and records nothing) for a
   * failure of a subject already counted as failed within the window.
   */
  record(failed: boolean, subject: string | undefined, now: number): boolean {
    if (failed && subject !== undefined && !this.#firstFailure(subject, now)) return false;
    const slot = this.#slot(now);
    this.#calls[slot] = (this.#calls[slot] as number) + 1;
    if (failed) this.#failures[slot] = (this.#failures[slot] as number) + 1;
    return true;
  }

  /** Calls and failures recorded within the window ending at `now`. */
  totals(now: number): { calls: number; failures: number } {
    const oldest = Math.floor(now / this.#bucketMs) - BUCKETS + 1;
    let calls = 0;
    let failures = 0;
    for (let i = 0; i < BUCKETS; i++) {
      if ((this.#starts[i] as number) < oldest) continue;
      calls += this.#calls[i] as number;
      failures += this.#failures[i] as number;
    }
    return { calls, failures };
  }

  /** Forgets everything (the circuit closed again: a fresh start). */
  reset(): void {
    this.#starts.fill(Number.NEGATIVE_INFINITY);
    this.#calls.fill(0);
    this.#failures.fill(0);
    this.#counted.clear();
  }

  #slot(now: number): number {
    const index = Math.floor(now / this.#bucketMs);
    const slot = ((index % BUCKETS) + BUCKETS) % BUCKETS;
    if (this.#starts[slot] !== index) {
      this.#starts[slot] = index;
      this.#calls[slot] = 0;
      this.#failures[slot] = 0;
    }
    return slot;
  }

  #firstFailure(subject: string, now: number): boolean {
    for (const [key, at] of this.#counted) {
      if (at > now - this.#windowMs && this.#counted.size < MAX_SUBJECTS) break;
      this.#counted.delete(key);
    }
    if (this.#counted.has(subject)) return false;
    this.#counted.set(subject, now);
    return true;
  }
}
