import { setMaxListeners } from 'node:events';

/** An internal signal that follows the caller's and can also be aborted on its own. */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  readonly abort: () => void;
  /** Detaches from the caller's signal; call when the batch is over. */
  readonly dispose: () => void;
}

/**
 * One signal for every lookup of a batch. The caller's signal gets a single
 * listener, however large the batch; the internal one may get one per
 * lookup in flight, so its listener limit is raised to the concurrency
 * (Node warns past 10 otherwise).
 */
export function linkedSignal(outer: AbortSignal | undefined, concurrency: number): LinkedSignal {
  const controller = new AbortController();
  setMaxListeners(concurrency + 1, controller.signal);
  const abort = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) abort();
  else outer?.addEventListener('abort', abort, { once: true });
  return {
    signal: controller.signal,
    abort: () => controller.abort(),
    dispose: () => outer?.removeEventListener('abort', abort),
  };
}
