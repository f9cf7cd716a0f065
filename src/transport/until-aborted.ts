import type { AbortLike } from '../util/abort-like.js';

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
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        onAbort = () => reject(aborted());
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}
