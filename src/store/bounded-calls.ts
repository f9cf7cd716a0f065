import { errorCode } from '../util/error-code.js';
import { OutcomeWindow } from '../util/outcome-window.js';

/** The value of a call that failed, timed out or was skipped while the store was benched. */
export const UNAVAILABLE: unique symbol = Symbol('outside store unavailable');
/** The type of {@link UNAVAILABLE}. */
export type Unavailable = typeof UNAVAILABLE;

/**
 * This many failures within {@link FAILURE_WINDOW_MS}, if they are at least
 * half of the calls that ended in it, bench the store.
 */
const FAILURES_TO_BENCH = 3;
/** The window in which failures are counted against calls. */
const FAILURE_WINDOW_MS = 1_000;
/** How long a benched store is first left alone before one call probes it. */
export const FIRST_BACKOFF_MS = 1_000;
/** Longest wait between probes (each failed probe doubles the wait up to it): a store that returns is used again within it. */
export const MAX_BACKOFF_MS = 5_000;

/** Why a call failed: no answer in time, an error, or a reply the caller found out of range. */
export type StoreFailure =
  | { readonly reason: 'timeout' }
  | { readonly reason: 'error' | 'out-of-range'; readonly code: string };

/** What the owner of a {@link BoundedCalls} is told (its counters and events); `Tag` is what it passed with the call. */
export interface BackoffListener<Tag> {
  /** Every failure, a call's or a reply out of range (`tag` is `undefined` for the latter). */
  failed(failure: StoreFailure, tag: Tag | undefined): void;
  /** The store was benched: its calls are skipped for `backoffMs`, then probed one at a time. */
  benched(failure: StoreFailure, backoffMs: number): void;
  /** A probe was answered: the store is used again. */
  resumed(): void;
  /** A call was not made because the store is benched. */
  skipped(): void;
}

const TIMED_OUT = Symbol('timed out');

/**
 * Calls to one outside store (the fleet's Redis, the lookups' shared cache),
 * each bounded by `timeoutMs` and never throwing, with one back-off policy:
 *
 * - **Benched on a share of a second's calls.** Every failure of the last
 *   second counts, overlapping or not: a dead store fails every call of a
 *   burst at once and must still be benched (counting failures "in a row"
 *   would see a burst's failures as one, or count a success that landed in
 *   between as proof of health). It is benched only once they are at least
 *   three and at least half of the calls that ended in that second:
 *   one or two failing keys among many answered calls are not an outage,
 *   and a busy store slow for a moment keeps answering most calls.
 * - **Probed, one call at a time.** A benched store's calls are skipped at
 *   once (never queued) for a second; then one call probes it while the
 *   others are still skipped. A failed probe doubles the wait (up to five
 *   seconds); the first answered probe puts the store back in use, with a
 *   fresh count.
 * - **A store that lies steps aside at once.** A reply the caller finds out
 *   of range (a forged pause, a time to live past its cap) is no slow store
 *   whose share of failures needs weighing: {@link BoundedCalls.outOfRange}
 *   benches it at once.
 *
 * A time-out is decided after the event loop's poll phase, so a reply that
 * arrived while the process was busy is read first: a loaded process does
 * not take its own lag for a slow store. The clock is `performance.now()`,
 * read on each call so fake timers apply.
 *
 * @example
 * ```ts
 * const calls = new BoundedCalls(50, listener);
 * const value = await calls.run(() => redis.get(key));
 * const cached = value === UNAVAILABLE ? undefined : value; // go on without the store
 * ```
 */
export class BoundedCalls<Tag = undefined> {
  /** Longest wait for one call, in ms. */
  readonly timeoutMs: number;
  readonly #listener: BackoffListener<Tag>;
  /** Calls and failures of the last {@link FAILURE_WINDOW_MS}. */
  readonly #recent = new OutcomeWindow(FAILURE_WINDOW_MS);
  #benched = false;
  #resumeAt = 0;
  #backoffMs = FIRST_BACKOFF_MS;
  #probing = false;

  constructor(timeoutMs: number, listener: BackoffListener<Tag>) {
    this.timeoutMs = timeoutMs;
    this.#listener = listener;
  }

  /** Whether the store is benched (from the bench to the first answered probe). */
  get benched(): boolean {
    return this.#benched;
  }

  /** Whether a call made now would be skipped (benched, and no probe is due or one is in flight). */
  get skipsNow(): boolean {
    return this.#benched && (this.#probing || performance.now() < this.#resumeAt);
  }

  /**
   * One bounded call: its value, or {@link UNAVAILABLE} on failure, time-out
   * or while benched. `undoing`: a call that undoes one that may have run (a
   * lock's release) is made even while benched, and probes nothing.
   */
  async run<T>(call: () => Promise<T>, tag?: Tag, undoing = false): Promise<T | Unavailable> {
    const probe = this.#benched && !undoing;
    if (probe && (this.#probing || performance.now() < this.#resumeAt)) {
      this.#listener.skipped();
      return UNAVAILABLE;
    }
    if (probe) this.#probing = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(() => afterPoll(() => resolve(TIMED_OUT)), this.timeoutMs);
      });
      // `call()` may throw synchronously or return a non-promise: Promise.resolve().then covers both.
      const outcome = await Promise.race([Promise.resolve().then(call), timeout]);
      if (outcome === TIMED_OUT) {
        this.#failed({ reason: 'timeout' }, tag, probe);
        return UNAVAILABLE;
      }
      if (probe) this.#resume();
      else this.#recent.record(false, undefined, performance.now());
      return outcome;
    } catch (error) {
      this.#failed({ reason: 'error', code: errorCode(error) }, tag, probe);
      return UNAVAILABLE;
    } finally {
      if (probe) this.#probing = false;
      clearTimeout(timer);
    }
  }

  /**
   * A reply out of range (`code` names it, e.g. `PAUSE_OUT_OF_RANGE`): never
   * obeyed, a failure, and the store is benched at once.
   */
  outOfRange(code: string): void {
    const failure: StoreFailure = { reason: 'out-of-range', code };
    this.#listener.failed(failure, undefined);
    const now = performance.now();
    if (this.#benched) {
      this.#resumeAt = Math.max(this.#resumeAt, now + this.#backoffMs);
      return;
    }
    this.#bench(failure, now);
  }

  #failed(failure: StoreFailure, tag: Tag | undefined, probe: boolean): void {
    this.#listener.failed(failure, tag);
    const now = performance.now();
    if (probe) {
      // Still down: wait longer before the next probe.
      this.#backoffMs = Math.min(MAX_BACKOFF_MS, this.#backoffMs * 2);
      this.#resumeAt = now + this.#backoffMs;
      return;
    }
    // Calls that were in flight when the store was benched (or undoing ones) change nothing.
    if (this.#benched) return;
    this.#recent.record(true, undefined, now);
    const { calls, failures } = this.#recent.totals(now);
    if (failures >= FAILURES_TO_BENCH && failures * 2 >= calls) this.#bench(failure, now);
  }

  #bench(failure: StoreFailure, now: number): void {
    this.#benched = true;
    this.#backoffMs = FIRST_BACKOFF_MS;
    this.#resumeAt = now + FIRST_BACKOFF_MS;
    this.#listener.benched(failure, FIRST_BACKOFF_MS);
  }

  #resume(): void {
    this.#benched = false;
    this.#recent.reset();
    this.#listener.resumed();
  }
}

/** After the event loop's poll phase where the runtime has `setImmediate`; a Worker without `nodejs_compat` has none. */
function afterPoll(run: () => void): void {
  if (typeof globalThis.setImmediate === 'function') globalThis.setImmediate(run);
  else setTimeout(run, 0);
}
