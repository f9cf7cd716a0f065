import type { AbortLike } from './abort-like.js';
import { onAbort as subscribe } from './abort-subscriptions.js';

/**
 * Waits `ms`, or rejects with `onAbort()` as soon as `signal` aborts, so a
 * caller's abort also cuts a back-off wait short.
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
    timer = setTimeout(() => {
      unsubscribe?.();
      resolve();
    }, ms);
  });
}
