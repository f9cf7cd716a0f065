import type { HashScanClient, ScanOutcome } from '../index.js';
import { backpressure } from './io.js';

/**
 * Looks up the hash of each item (a hashed file, a line of a list) through
 * `scanIterable` and hands each outcome back with its item. An item whose
 * `hashOf` is `undefined` (an over-long line) needs no lookup: it is handed
 * back at once to `options.unlooked`. Items wait in a map only while their lookup
 * runs, so memory stays bounded by the concurrency; a Ctrl-C stops the loop
 * without reporting the lookups it aborted as failures.
 */
export async function lookUpEach<T>(
  client: HashScanClient,
  items: AsyncIterable<T>,
  hashOf: (item: T) => string | undefined,
  options: {
    readonly concurrency: number;
    readonly signal: AbortSignal;
    /** Reports an item that needs no lookup (`hashOf` gave `undefined`). */
    readonly unlooked?: (item: T) => void;
  },
  report: (item: T, outcome: ScanOutcome) => void,
  output: NodeJS.WritableStream,
): Promise<void> {
  const waiting = new Map<number, T>();
  let next = 0;
  async function* hashes(): AsyncGenerator<string, void, undefined> {
    for await (const item of items) {
      const hash = hashOf(item);
      if (hash === undefined) {
        if (options.unlooked === undefined) throw new TypeError('lookUpEach: an item without a hash');
        options.unlooked(item);
        continue;
      }
      waiting.set(next, item);
      next += 1;
      yield hash;
    }
  }
  const settings = { concurrency: options.concurrency, signal: options.signal };
  for await (const outcome of client.scanIterable(hashes(), settings)) {
    if (options.signal.aborted) break;
    const item = waiting.get(outcome.index);
    waiting.delete(outcome.index);
    if (item !== undefined) report(item, outcome);
    // No more input is pulled while stdout is behind: memory stays flat on any input size.
    await backpressure(output, options.signal);
  }
}
