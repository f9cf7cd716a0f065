import type { HashScanClient, ScanOutcome } from '../index.js';
import { backpressure } from './io.js';

/**
 * Looks up the hash of each item (a hashed file, a line of a list) through
 * `scanIterable` and hands each outcome back with its item. Items wait in a
 * map only while their lookup runs, so memory stays bounded by the
 * concurrency; a Ctrl-C stops the loop without reporting the lookups it
 * aborted as failures.
 */
export async function lookUpEach<T>(
  client: HashScanClient,
  items: AsyncIterable<T>,
  hashOf: (item: T) => string,
  options: { readonly concurrency: number; readonly signal: AbortSignal },
  report: (item: T, outcome: ScanOutcome) => void,
  output: NodeJS.WritableStream,
): Promise<void> {
  const waiting = new Map<number, T>();
  let next = 0;
  async function* hashes(): AsyncGenerator<string, void, undefined> {
    for await (const item of items) {
      waiting.set(next, item);
      next += 1;
      yield hashOf(item);
    }
  }
  for await (const outcome of client.scanIterable(hashes(), options)) {
    if (options.signal.aborted) break;
    const item = waiting.get(outcome.index);
    waiting.delete(outcome.index);
    if (item !== undefined) report(item, outcome);
    // No more input is pulled while stdout is behind: memory stays flat on any input size.
    await backpressure(output);
  }
}
