import type { AbortLike } from './abort-like.js';
import { onAbort } from './abort-subscriptions.js';

/** Checks a concurrency option: a whole number from 1 to 1024. */
export function isValidConcurrency(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 1 && value <= 1024;
}

/** One result of {@link streamConcurrent}. */
export interface Streamed<R> {
  /** Position of the input in the source, from 0. */
  readonly index: number;
  readonly value: R;
}

/** How {@link streamConcurrent} runs; `Y` is what it yields for each result. */
export interface StreamOptions<T, R, Y = Streamed<R>> {
  /** Tasks running plus results waiting to be read, at most. */
  readonly concurrency: number;
  /** Must not reject: callers turn errors into values. */
  readonly task: (item: T, index: number) => Promise<R>;
  /** Once aborted, nothing more is pulled; tasks already started still settle and are yielded. */
  readonly stop: AbortLike;
  /** Called when the consumer leaves early (break, throw): abort the tasks still running. */
  readonly cancel: () => void;
  /** Called once the source has said it is done, with the number of inputs it gave. */
  readonly onEnd?: (total: number) => void;
  /**
   * What is yielded for a result, made as it is yielded (so in the consumer's
   * pace): a caller that reshapes each result needs no generator of its own
   * around this one. @defaultValue `{ index, value }`
   */
  readonly emit?: (index: number, value: R) => Y;
  /** Called last, once the stream is over: `completed` when every result was yielded and the source did not throw. */
  readonly onClose?: (completed: boolean) => void;
}

type Source<T> = Iterable<T> | AsyncIterable<T>;

/** Whether `value` has an iterator (sync or async), without calling anything. */
export function isIterable(value: unknown): value is Source<unknown> {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  const methods = value as Partial<Record<typeof Symbol.iterator | typeof Symbol.asyncIterator, unknown>>;
  return typeof methods[Symbol.asyncIterator] === 'function' || typeof methods[Symbol.iterator] === 'function';
}

/** The source's iterator, and whether it is async; a `TypeError` for anything else. */
function iteratorOf<T>(source: Source<T>): { iterator: Iterator<T> | AsyncIterator<T>; isAsync: boolean } {
  if (source !== null && (typeof source === 'object' || typeof source === 'function')) {
    const asyncMethod = (source as Partial<AsyncIterable<T>>)[Symbol.asyncIterator];
    if (typeof asyncMethod === 'function') return { iterator: asyncMethod.call(source), isAsync: true };
    const syncMethod = (source as Partial<Iterable<T>>)[Symbol.iterator];
    if (typeof syncMethod === 'function') return { iterator: syncMethod.call(source), isAsync: false };
  }
  throw new TypeError('expected an iterable or async iterable');
}

/**
 * Pulls from a (possibly endless, possibly slow) iterable and yields task
 * results as soon as they settle, each with its input index. Pulling and
 * yielding are decoupled: a source that is slow or stalled never holds back
 * a finished result, and a consumer that is slow never lets more than
 * `concurrency` inputs be pulled ahead of it (tasks running plus results
 * waiting), so memory is bounded by the concurrency, not the input size.
 *
 * Ends when the source has ended (or `stop` aborted) and every started task
 * has been yielded; a stalled pull is not waited for once `stop` aborts. A
 * source that throws ends the stream with its error, after the tasks already
 * started have been yielded. Breaking out of the loop stops pulling, calls
 * `cancel()` and closes the source.
 */
export async function* streamConcurrent<T, R, Y = Streamed<R>>(
  source: Source<T>,
  options: StreamOptions<T, R, Y>,
): AsyncGenerator<Y, void, undefined> {
  const { concurrency, task, stop, cancel, onEnd, onClose } = options;
  const emit = options.emit ?? ((index: number, value: R) => ({ index, value }) as Y);
  const { iterator, isAsync } = iteratorOf(source);
  const ready: { index: number; value: R }[] = [];
  let running = 0;
  let pulled = 0;
  let pulling = false;
  // `open` while more may come; `ended` once the source said done, `failed` once it threw, `stopped` by `stop`.
  // (An object, so that the compiler does not narrow a state the callbacks change.)
  const feed = { state: 'open' as 'open' | 'ended' | 'failed' | 'stopped', failure: undefined as unknown };
  let left = false;
  let wakeConsumer: (() => void) | undefined;

  const wake = (): void => {
    const resolve = wakeConsumer;
    wakeConsumer = undefined;
    resolve?.();
  };
  const fail = (error: unknown): void => {
    pulling = false;
    if (feed.state === 'open') {
      feed.state = 'failed';
      feed.failure = error;
    }
    wake();
  };
  /** Starts the task of one pulled step; false when the source has nothing more to give now. */
  const accept = (step: IteratorResult<T>): boolean => {
    pulling = false;
    if (left || feed.state !== 'open') return false;
    if (typeof step !== 'object' || step === null) {
      fail(new TypeError('the iterator returned a non-object result'));
      return false;
    }
    if (step.done === true) {
      feed.state = 'ended';
      onEnd?.(pulled);
      wake();
      return false;
    }
    if (stop.aborted) return false;
    const index = pulled++;
    running += 1;
    task(step.value, index).then(
      (value) => {
        running -= 1;
        ready.push({ index, value });
        wake();
        fill();
      },
      (error: unknown) => {
        running -= 1;
        fail(error);
      },
    );
    return true;
  };
  const onStep = (step: IteratorResult<T>): void => {
    try {
      if (accept(step)) fill();
    } catch (error) {
      fail(error); // a hostile step whose `done` getter throws
    }
  };
  /** Pulls while there is room: one pull at a time, never past `concurrency` pulled and unread. */
  const fill = (): void => {
    try {
      while (!pulling && !left && feed.state === 'open' && !stop.aborted && running + ready.length < concurrency) {
        pulling = true;
        if (isAsync) {
          Promise.resolve((iterator as AsyncIterator<T>).next()).then(onStep, fail);
          return;
        }
        if (!accept((iterator as Iterator<T>).next())) return;
      }
    } catch (error) {
      fail(error);
    }
  };

  const unsubscribe = stop.aborted
    ? undefined
    : onAbort(stop, () => {
        if (feed.state === 'open') feed.state = 'stopped';
        wake();
      });
  if (stop.aborted) feed.state = 'stopped';
  let finished = false;
  try {
    fill();
    while (true) {
      const next = ready.shift();
      if (next !== undefined) {
        yield emit(next.index, next.value);
        fill();
        continue;
      }
      if (feed.state !== 'open' && running === 0) break;
      await new Promise<void>((resolve) => {
        wakeConsumer = resolve;
      });
    }
    finished = true;
    if (feed.state === 'failed') throw feed.failure;
  } finally {
    left = true;
    unsubscribe?.();
    if (!finished) cancel();
    // A source that ended or threw is closed already; any other is told we are done.
    if (feed.state === 'open' || feed.state === 'stopped') await close(iterator, pulling);
    onClose?.(finished && feed.state !== 'failed');
  }
}

/**
 * Calls the iterator's `return()`. While a pull is pending (a stalled
 * source), it is not waited for: the stream ends now and the source is
 * closed whenever it gets to it.
 */
async function close<T>(iterator: Iterator<T> | AsyncIterator<T>, pulling: boolean): Promise<void> {
  try {
    const closing = Promise.resolve(iterator.return?.());
    if (pulling) closing.catch(() => undefined);
    else await closing;
  } catch {
    // A source that fails to close has nothing more to tell this stream.
  }
}
