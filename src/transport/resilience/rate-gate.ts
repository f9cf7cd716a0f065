import type { AbortLike } from '../../util/abort-like.js';
import { sleep } from '../../util/sleep.js';
import { refusedWait, type WaitLimit } from './wait-limit.js';

/**
 * The one door every attempt of a client goes through. Two things can hold
 * it shut:
 *
 * - a pause: a `429` with `Retry-After` pauses the whole client (every
 *   caller, every batch) until that time, so a stream of a million lookups
 *   slows down instead of collecting a million errors;
 * - an optional client-side limit of requests per second, as a GCRA
 *   ("leaky bucket as a meter"): `burst` requests may start at once, then one
 *   every `1000 / requestsPerSecond` ms.
 *
 * A wait never outlasts the call's budget: one that cannot end in time ends
 * the call at once (see `wait-limit.ts`). The clock is `performance.now()`,
 * read on each call so fake timers apply.
 */
export class RateGate {
  readonly #intervalMs: number | undefined;
  readonly #burstMs: number;
  readonly #maxPauseMs: number;
  readonly #onPause: (pauseMs: number) => void;
  #pausedUntil = 0;
  /** GCRA's theoretical arrival time of the next request. */
  #nextAt = 0;
  #throttledMs = 0;
  #waiting = 0;

  constructor(
    limit: { readonly requestsPerSecond: number; readonly burst: number } | undefined,
    maxPauseMs: number,
    onPause: (pauseMs: number) => void = () => {},
  ) {
    this.#intervalMs = limit === undefined ? undefined : 1000 / limit.requestsPerSecond;
    this.#burstMs = limit === undefined ? 0 : (limit.burst - 1) * (1000 / limit.requestsPerSecond);
    this.#maxPauseMs = maxPauseMs;
    this.#onPause = onPause;
  }

  /** Total time attempts have waited at this gate, in ms. */
  get throttledMs(): number {
    return Math.round(this.#throttledMs);
  }

  /** Attempts waiting at this gate now. */
  get waiting(): number {
    return this.#waiting;
  }

  /** Whether a server-requested pause is in force now. */
  get paused(): boolean {
    return this.#pausedUntil > performance.now();
  }

  /** Ms left of the pause in force, 0 when none. */
  get pauseLeftMs(): number {
    return Math.max(0, this.#pausedUntil - performance.now());
  }

  /** Holds every attempt back for `ms` (capped at `maxPauseMs`); a longer pause already set wins. */
  pause(ms: number): void {
    const now = performance.now();
    const pauseMs = Math.min(ms, this.#maxPauseMs);
    if (pauseMs <= 0) return;
    // Said once per pause: a pause extended while in force (each concurrent 429 of a burst) is the same pause.
    if (this.#pausedUntil <= now) this.#onPause(Math.ceil(pauseMs));
    this.#pausedUntil = Math.max(this.#pausedUntil, now + pauseMs);
  }

  /**
   * Resolves when an attempt may start, or `undefined` at once when nothing
   * holds it (the common case costs no promise). Rejects with `onAbort()`
   * when `signal` aborts during the wait, and with `limit.refuse()` at once
   * when the wait cannot end within the call's budget.
   */
  pass(signal: AbortLike | undefined, onAbort: () => Error, limit?: WaitLimit): Promise<void> | undefined {
    const now = performance.now();
    if (this.#pausedUntil <= now && this.#intervalMs === undefined) return undefined;
    return this.#wait(signal, onAbort, limit);
  }

  async #wait(signal: AbortLike | undefined, onAbort: () => Error, limit: WaitLimit | undefined): Promise<void> {
    this.#waiting += 1;
    try {
      // A pause may be extended by another 429 while this attempt sleeps: wait again only then.
      let until = this.#pausedUntil;
      let paused = until - performance.now();
      while (paused > 0) {
        this.#fits(limit, paused + this.#rateWait(until), 'pause');
        await this.#sleep(paused, signal, onAbort);
        if (this.#pausedUntil === until) break;
        paused = this.#pausedUntil - until;
        until = this.#pausedUntil;
      }
      if (this.#intervalMs === undefined) return;
      const now = performance.now();
      const wait = this.#rateWait(now);
      this.#fits(limit, wait, 'rate-limit');
      this.#nextAt = Math.max(this.#nextAt, now) + this.#intervalMs;
      if (wait > 0) await this.#sleep(wait, signal, onAbort);
    } finally {
      this.#waiting -= 1;
    }
  }

  /** The rate limit's wait for an attempt arriving at `at`. */
  #rateWait(at: number): number {
    if (this.#intervalMs === undefined) return 0;
    return Math.max(0, Math.max(this.#nextAt, at) - this.#burstMs - at);
  }

  /** Throws the call's refusal when a wait of `waitMs` would end past its budget. */
  #fits(limit: WaitLimit | undefined, waitMs: number, kind: 'pause' | 'rate-limit'): void {
    const refusal = refusedWait(limit, waitMs, kind);
    if (refusal !== undefined) throw refusal;
  }

  async #sleep(ms: number, signal: AbortLike | undefined, onAbort: () => Error): Promise<void> {
    const started = performance.now();
    try {
      await sleep(Math.ceil(ms), signal, onAbort);
    } finally {
      this.#throttledMs += performance.now() - started;
    }
  }
}
