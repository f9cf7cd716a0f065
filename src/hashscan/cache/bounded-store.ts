import type { Observers } from '../../observe/observers.js';
import { errorCode } from '../../util/error-code.js';
import { OutcomeWindow } from '../../util/outcome-window.js';

/**
 * A Keyv-compatible store: what the shared cache level needs of it. A
 * `Keyv` instance is one (`new Keyv({ store: new KeyvRedis(url) })`), and so
 * is any object with these three async methods. Values written are strings.
 */
export interface SharedStore {
  /** The value under `key`, or `undefined` (or `null`) when there is none. */
  get(key: string): Promise<unknown>;
  /** Stores `value` under `key` for `ttl` milliseconds. */
  set(key: string, value: string, ttl?: number): Promise<unknown>;
  /** Removes `key`. */
  delete(key: string): Promise<unknown>;
}

/** Settings of the shared cache level (part of `cache`). */
export interface SharedCacheOptions {
  /**
   * A Keyv-compatible store shared by every replica, used as a second level
   * behind the in-process cache. Its entries are sealed with an HMAC and
   * checked on the way back like a service answer: a store cannot forge a verdict.
   * @defaultValue none: each process caches on its own
   */
  readonly store?: SharedStore | undefined;
  /**
   * Key of the HMAC-SHA-256 sealing each shared entry (at least 32 bytes).
   * Replicas that should share entries need the same one. Set it: the
   * default, derived from the API key and the source id, changes when the
   * API key rotates, which turns every stored entry into a miss.
   * @defaultValue HKDF-SHA-256 of the API key, with the source id as context
   */
  readonly secret?: string | Uint8Array | undefined;
  /**
   * Longest wait for one store call, in ms. A store that is slower, down or
   * throws is skipped (the lookup goes on to the service); after three
   * failures within a second (however many calls overlap), if they are half
   * or more of the store calls of that second, it is left alone for a
   * second, then one call probes it; each failed probe doubles the wait, up
   * to five seconds. Skipped calls are not queued.
   * @defaultValue 50
   */
  readonly storeTimeoutMs?: number | undefined;
}

export const DEFAULT_STORE_TIMEOUT_MS = 50;
/**
 * This many store calls failing within {@link STORE_FAILURE_WINDOW_MS}, and
 * at least half of the calls that ended in it, leave the store alone. Every
 * failure counts, overlapping or not: a dead store fails every call of a
 * burst at once, and must still be benched; a busy store that is slow for a
 * moment keeps answering most calls, and is not.
 */
const STORE_FAILURES_BEFORE_BACKOFF = 3;
/** The window in which {@link STORE_FAILURES_BEFORE_BACKOFF} failures bench the store. */
const STORE_FAILURE_WINDOW_MS = 1_000;
/** How long a failing store is first left alone; doubled after each failed probe. */
const STORE_BACKOFF_MS = 1_000;
/** Longest time a failing store is left alone before a probe: it is back in use within this of its return. */
export const STORE_MAX_BACKOFF_MS = 5_000;

/** Counters of the shared level. */
export interface StoreCounters {
  /** Store calls that failed: threw, rejected or took longer than `storeTimeoutMs`. */
  errors: number;
  /** Store calls skipped while the store was left alone. */
  skipped: number;
  /** Times the store was left alone after failures. */
  backoffs: number;
}

const TIMED_OUT = Symbol('timed out');

/**
 * Wraps a {@link SharedStore} so that it never makes a lookup fail or hang:
 * every call is bounded by `timeoutMs` and never throws out. A store that
 * fails is left alone (calls skipped at once, never queued), then probed by
 * one call at a time until it answers. Each failure and each transition is
 * reported to the observers, never the error's message (it may carry a
 * connection string).
 *
 * The clock is `performance.now()`, read on each call so fake timers apply.
 */
export class BoundedStore {
  readonly #store: SharedStore;
  /** Longest wait for one store call, in ms. */
  readonly timeoutMs: number;
  readonly #observers: Observers;
  readonly #name: 'hashscan';
  /** Calls and failures of the last {@link STORE_FAILURE_WINDOW_MS}. */
  readonly #recent = new OutcomeWindow(STORE_FAILURE_WINDOW_MS);
  #skipping = false;
  #resumeAt = 0;
  #backoffMs = STORE_BACKOFF_MS;
  #probing = false;
  readonly counters: StoreCounters = { errors: 0, skipped: 0, backoffs: 0 };

  constructor(store: SharedStore, options: { timeoutMs: number; observers: Observers; name: 'hashscan' }) {
    this.#store = store;
    this.timeoutMs = options.timeoutMs;
    this.#observers = options.observers;
    this.#name = options.name;
  }

  /** Whether the store is being left alone now. */
  get skipping(): boolean {
    return this.#skipping;
  }

  /** The stored value, or `undefined` on a miss and on any failure. */
  get(key: string): Promise<unknown> {
    return this.#call('get', () => this.#store.get(key));
  }

  /** Stores a value; a failure is counted and otherwise ignored. */
  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.#call('set', () => this.#store.set(key, value, ttlMs));
  }

  async #call(operation: 'get' | 'set', run: () => Promise<unknown>): Promise<unknown> {
    const probe = this.#skipping;
    if (probe && (this.#probing || performance.now() < this.#resumeAt)) {
      this.counters.skipped += 1;
      return undefined;
    }
    if (probe) this.#probing = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(resolve, this.timeoutMs, TIMED_OUT);
      });
      // `run()` may throw synchronously or return a non-promise: Promise.resolve().then covers both.
      const outcome = await Promise.race([Promise.resolve().then(run), timeout]);
      if (outcome === TIMED_OUT) {
        this.#failed(operation, probe, 'timeout', `no answer within ${this.timeoutMs} ms`);
        return undefined;
      }
      if (probe) this.#resume();
      else this.#recent.record(false, undefined, performance.now());
      return outcome;
    } catch (error) {
      this.#failed(operation, probe, 'error', errorCode(error));
      return undefined;
    } finally {
      if (probe) this.#probing = false;
      clearTimeout(timer);
    }
  }

  #failed(operation: 'get' | 'set', probe: boolean, reason: 'timeout' | 'error', code: string): void {
    this.counters.errors += 1;
    const observers = this.#observers;
    if (observers.listens('store:failed')) {
      observers.emit({ type: 'store:failed', client: this.#name, operation, reason, code });
    }
    const now = performance.now();
    if (probe) {
      // Still down: wait longer before the next probe.
      this.#backoffMs = Math.min(STORE_MAX_BACKOFF_MS, this.#backoffMs * 2);
      this.#resumeAt = now + this.#backoffMs;
      return;
    }
    if (this.#skipping) return;
    this.#recent.record(true, undefined, now);
    const { calls, failures } = this.#recent.totals(now);
    if (failures < STORE_FAILURES_BEFORE_BACKOFF || failures * 2 < calls) return;
    this.#skipping = true;
    this.#backoffMs = STORE_BACKOFF_MS;
    this.#resumeAt = now + STORE_BACKOFF_MS;
    this.counters.backoffs += 1;
    if (observers.listens('store')) {
      observers.emit({
        type: 'store',
        client: this.#name,
        state: 'skipping',
        reason: reason === 'timeout' ? 'timeout' : code,
        backoffMs: STORE_BACKOFF_MS,
      });
    }
  }

  #resume(): void {
    this.#skipping = false;
    this.#recent.reset();
    if (this.#observers.listens('store')) this.#observers.emit({ type: 'store', client: this.#name, state: 'resumed' });
  }
}
