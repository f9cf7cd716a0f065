import type { AbortLike } from '../util/abort-like.js';

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
    const abort = (): void => {
      clearTimeout(timer);
      reject(onAbort());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}
