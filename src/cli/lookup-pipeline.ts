import { setTimeout as delay } from 'node:timers/promises';
import type { HashScanClient } from '../index.js';
import { backpressure } from './io.js';
import type { ConcurrencyLimit } from './lookups/concurrency-limit.js';
import type { OutcomeView } from './scan-row.js';

/** The most lookups `scanIterable` is ever asked to run at once; the limit decides how many do. */
const MAX_IN_FLIGHT = 1024;

export interface LookUpOptions<T> {
  /** How many lookups may be in flight; read before each new one starts (adaptive or pinned). */
  readonly limit: ConcurrencyLimit;
  readonly signal: AbortSignal;
  /** Reports an item that needs no lookup (`hashOf` gave `undefined`). */
  readonly unlooked?: (item: T) => void;
}

/**
 * Looks up the hash of each item (a hashed file, a line of a list) through
 * `scanIterable` and hands each outcome back with its item, in completion
 * order. A new lookup starts only while fewer than `limit.current` are in
 * flight, at the limit's pace once the service has pushed back, and while stdout keeps up; each finished one feeds its latency to the
 * limit. Items wait in a map only while their lookup runs, so memory stays
 * bounded by the limit; a Ctrl-C stops the loop without reporting the
 * lookups it aborted as failures.
 */
export async function lookUpEach<T>(
  client: HashScanClient,
  items: AsyncIterable<T>,
  hashOf: (item: T) => string | undefined,
  options: LookUpOptions<T>,
  report: (item: T, outcome: OutcomeView) => void,
  output: NodeJS.WritableStream,
): Promise<void> {
  const { limit, signal } = options;
  const waiting = new Map<number, { readonly item: T; readonly startedAt: number }>();
  let next = 0;
  let wakeFeeder: (() => void) | undefined;
  const wake = (): void => {
    const resolve = wakeFeeder;
    wakeFeeder = undefined;
    resolve?.();
  };
  signal.addEventListener('abort', wake, { once: true });
  async function* hashes(): AsyncGenerator<string, void, undefined> {
    for await (const item of items) {
      const hash = hashOf(item);
      if (hash === undefined) {
        if (options.unlooked === undefined) throw new TypeError('lookUpEach: an item without a hash');
        options.unlooked(item);
        continue;
      }
      while (waiting.size >= limit.current && !signal.aborted) await new Promise<void>((r) => (wakeFeeder = r));
      // Paced after push-back: starts go out at the service's pace.
      for (let wait = limit.delayMs(); wait > 0 && !signal.aborted; wait = limit.delayMs()) {
        await delay(wait, undefined, { signal }).catch(() => undefined);
      }
      if (signal.aborted) return;
      waiting.set(next, { item, startedAt: performance.now() });
      next += 1;
      yield hash;
    }
  }
  try {
    for await (const outcome of client.scanIterable(hashes(), { concurrency: MAX_IN_FLIGHT, signal })) {
      if (signal.aborted) break;
      const entry = waiting.get(outcome.index);
      waiting.delete(outcome.index);
      if (entry !== undefined) {
        limit.sample(entry.startedAt, performance.now() - entry.startedAt, pushedBack(outcome));
        report(entry.item, outcome);
      }
      // No more input is pulled while stdout is behind: memory stays flat on any input size.
      await backpressure(output, signal);
      wake();
    }
  } finally {
    signal.removeEventListener('abort', wake);
  }
}

/** Whether a lookup met the service's push-back: a time-out, an HTTP error status (429, 503), an open circuit. */
export function pushedBack(outcome: OutcomeView): boolean {
  if (outcome.verdict !== 'error') return false;
  const { code } = outcome.error;
  return code === 'TIMEOUT' || code === 'HTTP_STATUS' || code === 'CIRCUIT_OPEN';
}
