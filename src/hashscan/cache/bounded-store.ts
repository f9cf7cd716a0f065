import type { Observers } from '../../observe/observers.js';
import { type BackoffListener, BoundedCalls, MAX_BACKOFF_MS, UNAVAILABLE } from '../../store/bounded-calls.js';
import { readManyOf } from '../../store/read-many.js';
import type { SharedStore } from '../../store/shared-store.js';

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
/** Longest time a failing store is left alone before a probe: it is back in use within this of its return. */
export const STORE_MAX_BACKOFF_MS = MAX_BACKOFF_MS;

/** Counters of the shared level. */
export interface StoreCounters {
  /** Store calls that failed: threw, rejected or took longer than `storeTimeoutMs`. */
  errors: number;
  /** Store calls skipped while the store was left alone. */
  skipped: number;
  /** Times the store was left alone after failures. */
  backoffs: number;
}

type Operation = 'get' | 'set';

/**
 * Wraps a {@link SharedStore} so that it never makes a lookup fail or hang:
 * every call is bounded by `timeoutMs` and never throws out, with the back-off
 * policy of every outside store (`store/bounded-calls.ts`): a failing store is
 * left alone (calls skipped at once, never queued), then probed by one call at
 * a time until it answers. Each failure and each transition is reported to the
 * observers, never the error's message (it may carry a connection string).
 */
export class BoundedStore {
  readonly #store: SharedStore;
  /** Longest wait for one store call, in ms. */
  readonly timeoutMs: number;
  readonly #observers: Observers;
  readonly #name: 'hashscan';
  readonly #calls: BoundedCalls<Operation>;
  readonly #readMany: ((keys: readonly string[]) => Promise<unknown>) | undefined;
  readonly counters: StoreCounters = { errors: 0, skipped: 0, backoffs: 0 };

  constructor(store: SharedStore, options: { timeoutMs: number; observers: Observers; name: 'hashscan' }) {
    this.#store = store;
    this.timeoutMs = options.timeoutMs;
    this.#observers = options.observers;
    this.#name = options.name;
    this.#calls = new BoundedCalls(options.timeoutMs, this.#listener());
    this.#readMany = readManyOf(store);
  }

  /** Whether the store reads many keys in one call ({@link BoundedStore.getMany}). */
  get readsMany(): boolean {
    return this.#readMany !== undefined;
  }

  /** Whether the store is being left alone now (from its bench to the first answered probe). */
  get skipping(): boolean {
    return this.#calls.benched;
  }

  /** The stored value, or `undefined` on a miss and on any failure. */
  async get(key: string): Promise<unknown> {
    const value = await this.#calls.run(() => this.#store.get(key), 'get');
    return value === UNAVAILABLE ? undefined : value;
  }

  /**
   * The values of `keys` in one call, in order, or `undefined` when the store
   * has no such call, fails, or answers anything but one value per key (a
   * store's reply is checked, never trusted). Bounded as `get` is.
   */
  async getMany(keys: readonly string[]): Promise<readonly unknown[] | undefined> {
    const readMany = this.#readMany;
    if (readMany === undefined) return undefined;
    const values = await this.#calls.run(() => readMany(keys), 'get');
    return Array.isArray(values) && values.length === keys.length ? values : undefined;
  }

  /** Stores a value; a failure is counted and otherwise ignored. */
  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.#calls.run(() => this.#store.set(key, value, ttlMs), 'set');
  }

  /** Counters and `store` / `store:failed` events. */
  #listener(): BackoffListener<Operation> {
    const { counters } = this;
    const observers = this.#observers;
    const client = this.#name;
    return {
      failed: (failure, operation = 'get') => {
        counters.errors += 1;
        if (!observers.listens('store:failed')) return;
        const timedOut = failure.reason === 'timeout';
        const code = timedOut ? `no answer within ${this.timeoutMs} ms` : failure.code;
        observers.emit({ type: 'store:failed', client, operation, reason: timedOut ? 'timeout' : 'error', code });
      },
      benched: (failure, backoffMs) => {
        counters.backoffs += 1;
        if (!observers.listens('store')) return;
        const reason = failure.reason === 'timeout' ? 'timeout' : failure.code;
        observers.emit({ type: 'store', client, state: 'skipping', reason, backoffMs });
      },
      resumed: () => {
        if (observers.listens('store')) observers.emit({ type: 'store', client, state: 'resumed' });
      },
      skipped: () => {
        counters.skipped += 1;
      },
    };
  }
}
