/** Checks a concurrency option: a whole number from 1 to 1024. */
export function isValidConcurrency(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 1 && value <= 1024;
}

/**
 * Runs `task` over `items` with at most `concurrency` at once; results keep
 * the input order. `task` must not reject (callers turn errors into values).
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/**
 * Pulls from a (possibly endless) iterable and yields task results as they
 * complete, each with its input index. At most `concurrency` tasks run, and
 * at most `concurrency` results wait to be read, so memory is bounded by the
 * concurrency, not by the input size. `task` must not reject.
 *
 * Breaking out of the loop stops pulling input and calls `stop()` so the
 * caller can abort the tasks still running.
 */
export async function* streamConcurrent<T, R>(
  source: Iterable<T> | AsyncIterable<T>,
  concurrency: number,
  task: (item: T, index: number) => Promise<R>,
  stop: () => void,
): AsyncGenerator<{ index: number; value: R }, void, undefined> {
  const iterator =
    Symbol.asyncIterator in source
      ? (source as AsyncIterable<T>)[Symbol.asyncIterator]()
      : (source as Iterable<T>)[Symbol.iterator]();
  const done: { index: number; value: R }[] = [];
  let wake: (() => void) | undefined;
  let running = 0;
  let index = 0;
  let exhausted = false;
  let finished = false;

  try {
    while (true) {
      while (!exhausted && running + done.length < concurrency) {
        const step = await iterator.next();
        if (step.done === true) {
          exhausted = true;
          break;
        }
        const position = index++;
        running += 1;
        void task(step.value, position).then((value) => {
          running -= 1;
          done.push({ index: position, value });
          wake?.();
        });
      }
      const ready = done.shift();
      if (ready !== undefined) {
        yield ready;
        continue;
      }
      if (exhausted && running === 0) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
    finished = true;
  } finally {
    if (!finished) {
      stop();
      await iterator.return?.();
    }
  }
}
