import { type AbortLike, SharedAbort } from './abort-like.js';
import { onAbort } from './abort-subscriptions.js';

/** What callers of one shared operation can see of its progress. */
export interface SharedProgress {
  /** Attempts the operation has started; its owner updates this. */
  attempts: number;
}

/** An operation just opened: the signal it runs under and the progress its callers can see. */
export interface Flight {
  readonly signal: SharedAbort;
  readonly progress: SharedProgress;
}

/** A caller with a signal, waiting for a shared operation. */
interface Waiter<V> {
  readonly resolve: (value: V) => void;
  readonly reject: (error: unknown) => void;
  readonly signal: AbortLike;
  readonly listener: () => void;
  /** Detaches `listener` from an `AbortSignal` (a {@link SharedAbort} needs no closure for that). */
  readonly unsubscribe: (() => void) | undefined;
}

interface Shared<V> {
  readonly promise: Promise<V>;
  readonly controller: SharedAbort;
  readonly progress: SharedProgress;
  /** Callers that could still abort; infinite once one cannot. */
  waiters: number;
  /** Callers with a signal still waiting, told when the operation settles (the usual one without an array). */
  first: Waiter<V> | undefined;
  more: Waiter<V>[] | undefined;
}

/**
 * Shares one in-flight operation between concurrent callers of the same key.
 * Each caller may bring its own `signal`: its abort rejects that caller at
 * once and leaves the others waiting; the shared work is aborted only when
 * every caller that could abort it has gone. (lru-cache's `fetch()` would
 * let one caller's abort cancel the work for all.) One `then` per operation
 * settles every waiting caller: a lookup answered in tens of microseconds
 * pays for each promise and closure.
 */
function tell<V>(waiter: Waiter<V>, resolved: boolean, outcome: unknown): void {
  if (waiter.unsubscribe === undefined) waiter.signal.removeEventListener('abort', waiter.listener);
  else waiter.unsubscribe();
  if (resolved) waiter.resolve(outcome as V);
  else waiter.reject(outcome);
}

/** Takes an aborted caller off the waiting list. */
function leave<V>(shared: Shared<V>, waiter: Waiter<V>): void {
  if (shared.first === waiter) {
    shared.first = undefined;
    return;
  }
  const at = shared.more?.indexOf(waiter) ?? -1;
  if (at >= 0) shared.more?.splice(at, 1);
}

export class InFlight<K, V> {
  readonly #pending = new Map<K, Shared<V>>();

  /** Number of distinct operations under way. */
  get size(): number {
    return this.#pending.size;
  }

  /** Whether an operation for `key` is under way (a {@link join} now would join it). */
  has(key: K): boolean {
    return this.#pending.has(key);
  }

  /**
   * What a caller waits for when it need not start anything: the operation
   * for `key` already under way, or a rejection when its `signal` has
   * already aborted. `undefined`: the caller starts the operation
   * ({@link open}, then {@link track}), so no frame of this class is on the
   * operation's stack.
   */
  join(key: K, signal: AbortLike | undefined, aborted: (progress: SharedProgress) => Error): Promise<V> | undefined {
    if (signal?.aborted) return Promise.reject(aborted({ attempts: 0 }));
    const shared = this.#pending.get(key);
    return shared === undefined ? undefined : this.#wait(key, shared, signal, aborted);
  }

  /** A new operation's shared signal (aborted once every caller that could abort it has gone) and progress. */
  open(): Flight {
    return { signal: new SharedAbort(), progress: { attempts: 0 } };
  }

  /** Shares the operation `promise`, opened as `flight`, under `key`; the caller that started it waits as any other. */
  track(
    key: K,
    flight: Flight,
    promise: Promise<V>,
    signal: AbortLike | undefined,
    aborted: (progress: SharedProgress) => Error,
  ): Promise<V> {
    const shared: Shared<V> = {
      promise,
      controller: flight.signal,
      progress: flight.progress,
      waiters: 0,
      first: undefined,
      more: undefined,
    };
    promise.then(
      (value) => this.#settle(key, shared, true, value),
      (error: unknown) => this.#settle(key, shared, false, error),
    );
    this.#pending.set(key, shared);
    return this.#wait(key, shared, signal, aborted);
  }

  #wait(
    key: K,
    shared: Shared<V>,
    signal: AbortLike | undefined,
    aborted: (progress: SharedProgress) => Error,
  ): Promise<V> {
    if (signal === undefined) {
      // A caller that cannot abort keeps the work alive for good.
      shared.waiters = Number.POSITIVE_INFINITY;
      return shared.promise;
    }
    shared.waiters += 1;
    return new Promise<V>((resolve, reject) => {
      const listener = (): void => {
        leave(shared, waiter);
        shared.waiters -= 1;
        if (shared.waiters === 0) {
          this.#forget(key, shared);
          shared.controller.abort();
        }
        reject(aborted(shared.progress));
      };
      // One listener per `AbortSignal` however many calls share it (see onAbort); a SharedAbort has no limit.
      const direct = signal instanceof SharedAbort;
      if (direct) signal.addEventListener('abort', listener);
      const waiter: Waiter<V> = {
        resolve,
        reject,
        signal,
        listener,
        unsubscribe: direct ? undefined : onAbort(signal, listener),
      };
      if (shared.first === undefined && shared.more === undefined) {
        shared.first = waiter;
      } else {
        shared.more ??= [];
        shared.more.push(waiter);
      }
    });
  }

  /** Forgets a settled operation and tells its waiting callers, detached from their signals. */
  #settle(key: K, shared: Shared<V>, resolved: boolean, outcome: unknown): void {
    this.#forget(key, shared);
    const { first, more } = shared;
    shared.first = undefined;
    shared.more = undefined;
    if (first !== undefined) tell(first, resolved, outcome);
    if (more !== undefined) for (const waiter of more) tell(waiter, resolved, outcome);
  }

  #forget(key: K, shared: Shared<V>): void {
    if (this.#pending.get(key) === shared) this.#pending.delete(key);
  }
}
