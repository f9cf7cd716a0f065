import { type AbortLike, SharedAbort } from './abort-like.js';
import { onAbort } from './abort-subscriptions.js';

/** What callers of one shared operation can see of its progress. */
export interface SharedProgress {
  /** Attempts the operation has started; its owner updates this. */
  attempts: number;
}

interface Shared<V> {
  readonly promise: Promise<V>;
  readonly controller: SharedAbort;
  readonly progress: SharedProgress;
  waiters: number;
}

/**
 * Shares one in-flight operation between concurrent callers of the same key.
 * Each caller may bring its own `signal`: its abort rejects that caller at
 * once and leaves the others waiting; the shared work is aborted only when
 * every caller that could abort it has gone. (lru-cache's `fetch()` would
 * let one caller's abort cancel the work for all.)
 */
export class InFlight<K, V> {
  readonly #pending = new Map<K, Shared<V>>();

  /** Number of distinct operations under way. */
  get size(): number {
    return this.#pending.size;
  }

  run(
    key: K,
    start: (signal: AbortLike, progress: SharedProgress) => Promise<V>,
    signal: AbortLike | undefined,
    aborted: (progress: SharedProgress) => Error,
  ): Promise<V> {
    if (signal?.aborted) return Promise.reject(aborted({ attempts: 0 }));
    let shared = this.#pending.get(key);
    if (shared === undefined) {
      const controller = new SharedAbort();
      const progress: SharedProgress = { attempts: 0 };
      const promise = start(controller, progress);
      const entry: Shared<V> = { promise, controller, progress, waiters: 0 };
      const forget = (): void => {
        if (this.#pending.get(key) === entry) this.#pending.delete(key);
      };
      promise.then(forget, forget);
      this.#pending.set(key, entry);
      shared = entry;
    }
    if (signal === undefined) {
      // A caller that cannot abort keeps the work alive for good.
      shared.waiters = Number.POSITIVE_INFINITY;
      return shared.promise;
    }
    return this.#join(key, shared, signal, aborted);
  }

  #join(key: K, shared: Shared<V>, signal: AbortLike, aborted: (progress: SharedProgress) => Error): Promise<V> {
    shared.waiters += 1;
    return new Promise<V>((resolve, reject) => {
      // One listener per signal however many calls share it (see onAbort).
      const unsubscribe = onAbort(signal, () => {
        shared.waiters -= 1;
        if (shared.waiters === 0) {
          if (this.#pending.get(key) === shared) this.#pending.delete(key);
          shared.controller.abort();
        }
        reject(aborted(shared.progress));
      });
      shared.promise.then(
        (value) => {
          unsubscribe();
          resolve(value);
        },
        (error: unknown) => {
          unsubscribe();
          reject(error);
        },
      );
    });
  }
}
