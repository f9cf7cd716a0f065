import type { AbortLike } from './abort-like.js';
import { onAbort as subscribe } from './abort-subscriptions.js';

/**
 * Waits for `work` (an attempt's request, while its credentials are being
 * fetched) unless the caller aborts first: then rejects at once with
 * `aborted()`, and the request is never sent, even if `work` settles later.
 */
export async function untilAborted<T>(
  work: Promise<T>,
  signal: AbortLike | undefined,
  aborted: () => Error,
): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) {
    // `work` still settles on its own; its outcome no longer matters.
    work.catch(() => {});
    throw aborted();
  }
  let unsubscribe: (() => void) | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        // One listener per signal, however many calls share it (see onAbort).
        unsubscribe = subscribe(signal, () => reject(aborted()));
      }),
    ]);
  } finally {
    unsubscribe?.();
  }
}
