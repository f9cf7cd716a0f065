/**
 * Two streams of work into one for the lookup stage: files that were read
 * (from the hashing thread) and files whose recorded digests stand (from the
 * walk, never read), in whichever order they become ready.
 */

/** Batches pushed by a producer, taken whole by one consumer; `end()` once nothing more will come. */
export class BatchChannel<T> implements AsyncIterable<readonly T[]> {
  #batch: T[] = [];
  #ended = false;
  #wake: (() => void) | undefined;

  push(item: T): void {
    this.#batch.push(item);
    this.#signal();
  }

  end(): void {
    this.#ended = true;
    this.#signal();
  }

  #signal(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<readonly T[], void, undefined> {
    while (true) {
      if (this.#batch.length > 0) {
        const batch = this.#batch;
        this.#batch = [];
        yield batch;
      } else if (this.#ended) return;
      else await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }
}

/** Yields from both sources as each has something, until both have ended. */
export async function* mergeBatches<T>(
  a: AsyncIterable<readonly T[]>,
  b: AsyncIterable<readonly T[]>,
): AsyncGenerator<readonly T[], void, undefined> {
  const sources = [a[Symbol.asyncIterator](), b[Symbol.asyncIterator]()];
  type Step = { readonly source: number; readonly step: IteratorResult<readonly T[]> };
  const pending = new Map<number, Promise<Step>>();
  const pull = (source: number): void => {
    pending.set(
      source,
      (sources[source] as AsyncIterator<readonly T[]>).next().then((step) => ({ source, step })),
    );
  };
  pull(0);
  pull(1);
  try {
    while (pending.size > 0) {
      const { source, step } = await Promise.race(pending.values());
      if (step.done === true) {
        pending.delete(source);
        continue;
      }
      pull(source);
      yield step.value;
    }
  } finally {
    // Stopped early (Ctrl-C): each source ends on its own once its pending step settles.
    for (const source of pending.keys()) void sources[source]?.return?.().catch(() => undefined);
  }
}
