import { type AbortLike, SharedAbort } from './abort-like.js';
import { onAbort } from './abort-subscriptions.js';

/** An internal signal that follows the caller's and can also be aborted on its own. */
export interface LinkedSignal {
  readonly signal: AbortLike;
  readonly abort: () => void;
  /** Detaches from the caller's signal; call when the batch is over. */
  readonly dispose: () => void;
}

/**
 * One signal for every lookup of a batch. The caller's signal gets a single
 * listener, however large the batch and however many batches share it; the internal one gets one per lookup
 * in flight, which costs a `Set` entry (it is a {@link SharedAbort}, not an
 * `AbortSignal`, so no listener limit and no warning past 10 either).
 */
export function linkedSignal(outer: AbortSignal | undefined): LinkedSignal {
  const shared = new SharedAbort();
  const follow = (): void => shared.abort(outer?.reason);
  let dispose = (): void => undefined;
  // Many batches may share the caller's signal: one listener on it for all of them (see onAbort).
  if (outer?.aborted) follow();
  else if (outer !== undefined) dispose = onAbort(outer, follow);
  return { signal: shared, abort: () => shared.abort(), dispose };
}
