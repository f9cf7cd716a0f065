import type { AbortLike } from './abort-like.js';
import { onAbort as subscribe } from './abort-subscriptions.js';

/** The longest delay `setTimeout` keeps: a longer one fires at once (`TimeoutOverflowWarning`). */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Waits `ms`, or rejects with `onAbort()` as soon as `signal` aborts, so a
 * caller's abort also cuts a back-off wait short. `ms` is clamped to what a
 * timer can wait: a delay past it must never turn into a spin.
 */
export function sleep(ms: number, signal: AbortLike | undefined, onAbort: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(onAbort());
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    // One listener per signal, however many waits share it (see onAbort).
    const unsubscribe =
      signal === undefined
        ? undefined
        : subscribe(signal, () => {
            clearTimeout(timer);
            reject(onAbort());
          });
    timer = setTimeout(
      () => {
        unsubscribe?.();
        resolve();
      },
      ms > MAX_TIMER_MS ? MAX_TIMER_MS : ms > 0 ? ms : 0,
    );
  });
}
