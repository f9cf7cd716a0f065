import { describe, expect, it, vi } from 'vitest';
import { type AbortLike, SharedAbort } from '../../src/util/abort-like.js';
import { InFlight, type SharedProgress } from '../../src/util/in-flight.js';

/** Joins the operation for `key`, or opens and tracks one with `start`: what `HashScanClient#lookup` does. */
function run<V>(
  inFlight: InFlight<string, V>,
  key: string,
  start: (signal: AbortLike, progress: SharedProgress) => Promise<V>,
  signal: AbortLike | undefined,
  aborted: (progress: SharedProgress) => Error,
): Promise<V> {
  const joined = inFlight.join(key, signal, aborted);
  if (joined !== undefined) return joined;
  const flight = inFlight.open();
  return inFlight.track(key, flight, start(flight.signal, flight.progress), signal, aborted);
}

/** A shared operation the test settles by hand; records the signal it was given. */
function operation(): {
  start: (signal: AbortLike) => Promise<string>;
  settle: (value: string) => void;
  signal: () => AbortLike | undefined;
} {
  let settle: (value: string) => void = () => undefined;
  let given: AbortLike | undefined;
  return {
    start: (signal) => {
      given = signal;
      return new Promise<string>((resolve) => {
        settle = resolve;
      });
    },
    settle: (value) => settle(value),
    signal: () => given,
  };
}

const aborted = (): Error => new Error('caller aborted');

describe('InFlight', () => {
  it.each([
    ['SharedAbort', () => new SharedAbort()],
    ['AbortController', () => new AbortController()],
  ])(
    'callers with %s signals: one leaves at once, the others get the value, nothing stays subscribed',
    async (_kind, make) => {
      const inFlight = new InFlight<string, string>();
      const work = operation();
      const start = vi.fn(work.start);
      const [a, b, c] = [make(), make(), make()];
      const signalOf = (x: SharedAbort | AbortController): AbortLike => (x instanceof SharedAbort ? x : x.signal);
      const first = run(inFlight, 'k', start, signalOf(a), aborted);
      const second = run(inFlight, 'k', start, signalOf(b), aborted);
      const third = run(inFlight, 'k', start, signalOf(c), aborted);
      expect(start).toHaveBeenCalledTimes(1);
      b.abort();
      await expect(second).rejects.toThrow('caller aborted');
      expect(work.signal()?.aborted).toBe(false);
      work.settle('done');
      await expect(first).resolves.toBe('done');
      await expect(third).resolves.toBe('done');
      expect(inFlight.size).toBe(0);
      // Settled callers were detached: their aborts no longer count (else the last one would abort the work).
      a.abort();
      c.abort();
      expect(work.signal()?.aborted).toBe(false);
    },
  );

  it('aborts the shared work once every caller that could abort has left; a new caller starts afresh', async () => {
    const inFlight = new InFlight<string, string>();
    const work = operation();
    const [a, b] = [new SharedAbort(), new SharedAbort()];
    const first = run(inFlight, 'k', work.start, a, aborted);
    const second = run(inFlight, 'k', work.start, b, aborted);
    a.abort();
    b.abort();
    await expect(first).rejects.toThrow('caller aborted');
    await expect(second).rejects.toThrow('caller aborted');
    expect(work.signal()?.aborted).toBe(true);
    expect(inFlight.size).toBe(0);
    const again = operation();
    const third = run(inFlight, 'k', again.start, undefined, aborted);
    again.settle('fresh');
    await expect(third).resolves.toBe('fresh');
  });

  it('a caller without a signal keeps the work alive; rejections reach every caller', async () => {
    const inFlight = new InFlight<string, string>();
    let fail: (error: Error) => void = () => undefined;
    let given: AbortLike | undefined;
    const start = (signal: AbortLike): Promise<string> => {
      given = signal;
      return new Promise<string>((_, reject) => {
        fail = reject;
      });
    };
    const a = new SharedAbort();
    const withSignal = run(inFlight, 'k', start, a, aborted);
    const without = run(inFlight, 'k', start, undefined, aborted);
    a.abort();
    await expect(withSignal).rejects.toThrow('caller aborted');
    expect(given?.aborted).toBe(false);
    const later = new SharedAbort();
    const joined = run(inFlight, 'k', start, later, aborted);
    fail(new Error('service down'));
    await expect(without).rejects.toThrow('service down');
    await expect(joined).rejects.toThrow('service down');
  });
});
