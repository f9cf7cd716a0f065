import type { AbortLike } from '../../util/abort-like.js';
import { sleep } from '../../util/sleep.js';

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
 * The clock is `performance.now()`, read on each call so fake timers apply.
 */
export class RateGate {
  readonly #intervalMs: number | undefined;
  readonly #burstMs: number;
  readonly #maxPauseMs: number;
  #pausedUntil = 0;
  /** GCRA's theoretical arrival time of the next request. */
  #nextAt = 0;
  #throttledMs = 0;

  constructor(limit: { readonly requestsPerSecond: number; readonly burst: number } | undefined, maxPauseMs: number) {
    this.#intervalMs = limit === undefined ? undefined : 1000 / limit.requestsPerSecond;
    this.#burstMs = limit === undefined ? 0 : (limit.burst - 1) * (1000 / limit.requestsPerSecond);
    this.#maxPauseMs = maxPauseMs;
  }

  /** Total time attempts have waited at this gate, in ms. */
  get throttledMs(): number {
    return Math.round(this.#throttledMs);
  }

  /** Whether a server-requested pause is in force now. */
  get paused(): boolean {
    return this.#pausedUntil > performance.now();
  }

  /** Holds every attempt back for `ms` (capped at `maxPauseMs`); a longer pause already set wins. */
  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, performance.now() + Math.min(ms, this.#maxPauseMs));
  }

  /**
   * Resolves when an attempt may start, or `undefined` at once when nothing
   * holds it (the common case costs no promise). Rejects with `onAbort()`
   * when `signal` aborts during the wait.
   */
  pass(signal: AbortLike | undefined, onAbort: () => Error): Promise<void> | undefined {
    const now = performance.now();
    if (this.#pausedUntil <= now && this.#intervalMs === undefined) return undefined;
    return this.#wait(signal, onAbort);
  }

  async #wait(signal: AbortLike | undefined, onAbort: () => Error): Promise<void> {
    // A pause may be extended by another 429 while this attempt sleeps: wait again only then.
    let until = this.#pausedUntil;
    let paused = until - performance.now();
    while (paused > 0) {
      await this.#sleep(paused, signal, onAbort);
      if (this.#pausedUntil === until) break;
      paused = this.#pausedUntil - until;
      until = this.#pausedUntil;
    }
    if (this.#intervalMs === undefined) return;
    const now = performance.now();
    const arrival = Math.max(this.#nextAt, now);
    this.#nextAt = arrival + this.#intervalMs;
    const wait = arrival - this.#burstMs - now;
    if (wait > 0) await this.#sleep(wait, signal, onAbort);
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
