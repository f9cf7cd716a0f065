import { setTimeout as delay } from 'node:timers/promises';
import type { HashScanClient } from '../index.js';
import { backpressure, behind } from './io.js';
import type { ConcurrencyLimit } from './lookups/concurrency-limit.js';
import { CompletionOrder, type ResultOrder } from './lookups/result-order.js';
import type { OutcomeView } from './scan-row.js';

/** The most lookups `scanIterable` is ever asked to run at once; the limit decides how many do. */
const MAX_IN_FLIGHT = 1024;

export interface LookUpOptions<T> {
  /** How many lookups may be in flight; read before each new one starts (adaptive or pinned). */
  readonly limit: ConcurrencyLimit;
  readonly signal: AbortSignal;
  /** Reports an item that needs no lookup (`hashOf` gave `undefined`). */
  readonly unlooked?: (item: T) => void;
  /** In which order reports go out (`--order`). @defaultValue completion order */
  readonly order?: ResultOrder;
}

/**
 * Looks up the hash of each item (a hashed file, a line of a list; items
 * come in batches) through `scanIterable` and hands each outcome back with
 * its item, in the order `options.order` keeps (input or completion). A new
 * lookup starts only while fewer than `limit.current` are in flight, the
 * order's window has room, the limit's pace allows (once the service has
 * pushed back) and stdout keeps up; each finished one feeds its latency to
 * an adaptive limit. Memory stays bounded by the limit and the order's
 * window; a Ctrl-C stops the loop without reporting the lookups it aborted
 * as failures.
 */
export async function lookUpEach<T>(
  client: HashScanClient,
  items: AsyncIterable<readonly T[]>,
  hashOf: (item: T) => string | undefined,
  options: LookUpOptions<T>,
  report: (item: T, outcome: OutcomeView) => void,
  output: NodeJS.WritableStream,
): Promise<void> {
  const { limit, signal } = options;
  const order = options.order ?? new CompletionOrder();
  const waiting = new Map<number, { readonly item: T; readonly ticket: number; readonly startedAt: number }>();
  // Latencies feed an adaptive limit only: a pinned one reads no clock.
  const clock = limit.adaptive;
  const unlooked =
    options.unlooked ??
    (() => {
      throw new TypeError('lookUpEach: an item without a hash');
    });
  let next = 0;
  let wakeFeeder: (() => void) | undefined;
  const wake = (): void => {
    const resolve = wakeFeeder;
    wakeFeeder = undefined;
    resolve?.();
  };
  signal.addEventListener('abort', wake, { once: true });
  const feed = new HashFeed(items, hashOf, {
    unlooked: (item) => order.settle(order.ticket(), () => unlooked(item)),
    room: () => waiting.size < limit.current && order.hasRoom(),
    waitForRoom: () => new Promise<void>((resolve) => (wakeFeeder = resolve)),
    limit,
    signal,
    start: (item) => {
      waiting.set(next, { item, ticket: order.ticket(), startedAt: clock ? performance.now() : 0 });
      next += 1;
    },
  });
  try {
    for await (const outcome of client.scanIterable(feed, { concurrency: MAX_IN_FLIGHT, signal })) {
      if (signal.aborted) break;
      const entry = waiting.get(outcome.index);
      waiting.delete(outcome.index);
      if (entry !== undefined) {
        if (clock) limit.sample(entry.startedAt, performance.now() - entry.startedAt, pushedBack(outcome));
        order.settle(entry.ticket, () => report(entry.item, outcome));
      }
      // No more input is pulled while stdout is behind: memory stays flat on any input size.
      if (behind(output)) await backpressure(output, signal);
      wake();
    }
  } finally {
    signal.removeEventListener('abort', wake);
  }
}

interface FeedControl<T> {
  readonly unlooked: (item: T) => void;
  /** Whether one more lookup may be in flight now. */
  readonly room: () => boolean;
  /** Resolves when a lookup ends (or the run is aborted). */
  readonly waitForRoom: () => Promise<void>;
  readonly limit: ConcurrencyLimit;
  readonly signal: AbortSignal;
  readonly start: (item: T) => void;
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * The hashes of `items` for `scanIterable`, each once the limit has room
 * and the pace allows. A plain async iterator rather than a generator: a
 * hash that may go at once costs one resolved promise, and only a wait
 * (room, pace, the next batch read) goes through an `async` function.
 */
class HashFeed<T> implements AsyncIterableIterator<string> {
  readonly #source: AsyncIterator<readonly T[]>;
  readonly #hashOf: (item: T) => string | undefined;
  readonly #control: FeedControl<T>;
  #batch: readonly T[] = [];
  #at = 0;
  /** How long the pace asked the next start to wait, when it did. */
  #paceWait = 0;

  constructor(items: AsyncIterable<readonly T[]>, hashOf: (item: T) => string | undefined, control: FeedControl<T>) {
    this.#source = items[Symbol.asyncIterator]();
    this.#hashOf = hashOf;
    this.#control = control;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<string>> {
    try {
      return this.#take() ?? this.#wait();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async return(): Promise<IteratorResult<string>> {
    await this.#source.return?.();
    return DONE;
  }

  /** The next hash if it may go now (started), else `undefined`; items without a hash are reported on the way. */
  #take(): Promise<IteratorResult<string>> | undefined {
    const { signal, room, limit, unlooked, start } = this.#control;
    while (this.#at < this.#batch.length) {
      if (signal.aborted) return Promise.resolve(DONE);
      const item = this.#batch[this.#at] as T;
      const hash = this.#hashOf(item);
      if (hash === undefined) {
        this.#at += 1;
        unlooked(item);
        continue;
      }
      if (!room()) return undefined;
      // Paced after push-back: starts go out at the service's pace (`delayMs` takes a start when it says 0).
      this.#paceWait = limit.delayMs();
      if (this.#paceWait > 0) return undefined;
      this.#at += 1;
      start(item);
      return Promise.resolve({ value: hash, done: false });
    }
    return undefined;
  }

  async #wait(): Promise<IteratorResult<string>> {
    const { signal, room, waitForRoom } = this.#control;
    while (!signal.aborted) {
      if (this.#at >= this.#batch.length) {
        const step = await this.#source.next();
        if (step.done === true) return DONE;
        this.#batch = step.value;
        this.#at = 0;
      }
      const ready = this.#take();
      if (ready !== undefined) return ready;
      if (this.#at >= this.#batch.length) continue;
      if (!room()) await waitForRoom();
      else await delay(this.#paceWait, undefined, { signal }).catch(() => undefined);
    }
    return DONE;
  }
}

/** Whether a lookup met the service's push-back: a time-out, an HTTP error status (429, 503), an open circuit. */
function pushedBack(outcome: OutcomeView): boolean {
  if (outcome.verdict !== 'error') return false;
  const { code } = outcome.error;
  return code === 'TIMEOUT' || code === 'HTTP_STATUS' || code === 'CIRCUIT_OPEN';
}
