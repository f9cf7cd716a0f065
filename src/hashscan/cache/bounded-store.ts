import type { Observers } from '../../observe/observers.js';

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
   * failures in a row it is left alone for a second before it is tried again.
   * @defaultValue 50
   */
  readonly storeTimeoutMs?: number | undefined;
}

export const DEFAULT_STORE_TIMEOUT_MS = 50;
/**
 * After this many failed store calls in a row, the store is left alone for
 * {@link STORE_BACKOFF_MS}. "In a row" means each started after the previous
 * failure: calls that were in flight together (a burst of lookups meeting one
 * slow moment) count once.
 */
export const STORE_FAILURES_BEFORE_BACKOFF = 3;
/** How long a failing store is left alone (no pile-up of calls queued for a dead store). */
export const STORE_BACKOFF_MS = 1_000;

/** Counters of the shared level. */
export interface StoreCounters {
  /** Store calls that failed: threw, rejected or took longer than `storeTimeoutMs`. */
  errors: number;
  /** Store calls skipped during the back-off after a failure. */
  skipped: number;
}

const TIMED_OUT = Symbol('timed out');

/**
 * Wraps a {@link SharedStore} so that it never makes a lookup fail or hang:
 * every call is bounded by `timeoutMs`, never throws out, and each failure
 * is reported to the observers (without the error's message, which may carry
 * a connection string), as are the back-off and the recovery after it.
 */
export class BoundedStore {
  readonly #store: SharedStore;
  /** Longest wait for one store call, in ms. */
  readonly timeoutMs: number;
  readonly #observers: Observers;
  readonly #name: 'hashscan';
  #resumeAt = 0;
  /** In a back-off, until a store call succeeds again. */
  #skipping = false;
  #failuresInARow = 0;
  #lastFailureAt = Number.NEGATIVE_INFINITY;
  readonly counters: StoreCounters = { errors: 0, skipped: 0 };

  constructor(store: SharedStore, options: { timeoutMs: number; observers: Observers; name: 'hashscan' }) {
    this.#store = store;
    this.timeoutMs = options.timeoutMs;
    this.#observers = options.observers;
    this.#name = options.name;
  }

  /** The stored value, or `undefined` on a miss and on any failure. */
  get(key: string): Promise<unknown> {
    return this.#call('get', () => this.#store.get(key));
  }

  /** Stores a value; a failure is logged and otherwise ignored. */
  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.#call('set', () => this.#store.set(key, value, ttlMs));
  }

  async #call(operation: 'get' | 'set', run: () => Promise<unknown>): Promise<unknown> {
    if (performance.now() < this.#resumeAt) {
      this.counters.skipped += 1;
      return undefined;
    }
    const started = performance.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(resolve, this.timeoutMs, TIMED_OUT);
      });
      // `run()` may throw synchronously or return a non-promise: Promise.resolve().then covers both.
      const outcome = await Promise.race([Promise.resolve().then(run), timeout]);
      if (outcome === TIMED_OUT) {
        this.#failed(operation, started, 'timeout', `no answer within ${this.timeoutMs} ms`);
        return undefined;
      }
      this.#failuresInARow = 0;
      if (this.#skipping) {
        this.#skipping = false;
        if (this.#observers.listens('store')) this.#observers.emit({ type: 'store', state: 'resumed' });
      }
      return outcome;
    } catch (error) {
      this.#failed(operation, started, 'error', describe(error));
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  #failed(operation: string, started: number, reason: 'timeout' | 'error', detail: string): void {
    this.counters.errors += 1;
    const now = performance.now();
    if (started >= this.#lastFailureAt) this.#failuresInARow += 1;
    this.#lastFailureAt = now;
    if (this.#failuresInARow >= STORE_FAILURES_BEFORE_BACKOFF) {
      this.#resumeAt = now + STORE_BACKOFF_MS;
      if (!this.#skipping && this.#observers.listens('store')) {
        this.#observers.emit({ type: 'store', state: 'skipping', reason });
      }
      this.#skipping = true;
    }
    if (this.#observers.listens('store:failed')) {
      this.#observers.emit({ type: 'store:failed', client: this.#name, operation, reason, code: detail });
    }
  }
}

/** An error's `code` or `name` only: messages of store clients may carry connection strings with passwords. */
function describe(error: unknown): string {
  if (typeof error !== 'object' || error === null) return typeof error;
  try {
    const { code, name } = error as { code?: unknown; name?: unknown };
    if (typeof code === 'string' && /^[\w.-]{1,64}$/.test(code)) return code;
    if (typeof name === 'string' && /^[\w.-]{1,64}$/.test(name)) return name;
  } catch {
    // A hostile getter: say nothing more.
  }
  return 'error';
}
