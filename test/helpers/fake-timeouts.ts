import { afterEach, vi } from 'vitest';

/**
 * Fakes `setTimeout` for the tests of a file that call {@link fakeTimeouts},
 * so a time-out fires when the test moves the clock, never because the
 * machine is slow. Real I/O (msw, sockets, `setImmediate`) keeps running.
 */
export function fakeTimeouts(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
}

afterEach(() => {
  vi.useRealTimers();
});

/**
 * Moves the fake clock 1 ms at a time, letting real I/O run between steps,
 * until `done()` holds: e.g. through a back-off until the next attempt's
 * request has arrived. Stop there, so that attempt's own time-out never fires.
 */
export async function advanceUntil(done: () => boolean, limitMs = 60_000): Promise<void> {
  for (let elapsed = 0; !done(); elapsed += 1) {
    if (elapsed > limitMs) throw new Error(`advanceUntil: still not done after ${limitMs} fake ms`);
    await vi.advanceTimersByTimeAsync(1);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
