import { type AbortLike, SharedAbort } from './abort-like.js';

/** The one real listener of a signal and the subscribers it calls. */
interface FanOut {
  readonly subscribers: Set<() => void>;
  readonly fire: () => void;
}

const fanOuts = new WeakMap<AbortLike, FanOut>();

/**
 * Calls `listener` once when `signal` aborts (check `signal.aborted` first:
 * like `addEventListener`, nothing is called for a signal already aborted);
 * returns the unsubscribe function.
 *
 * However many calls share one `AbortSignal`, it gets a single listener:
 * Node prints `MaxListenersExceededWarning` past ten on one signal, which a
 * caller passing one signal to many concurrent calls must never see in their
 * logs. The listener goes with the last subscriber, so a long-lived signal
 * keeps nothing. A {@link SharedAbort} has no such limit and is used as is.
 */
export function onAbort(signal: AbortLike, listener: () => void): () => void {
  if (signal instanceof SharedAbort) {
    signal.addEventListener('abort', listener);
    return () => signal.removeEventListener('abort', listener);
  }
  let fan = fanOuts.get(signal);
  if (fan === undefined) {
    const subscribers = new Set<() => void>();
    const fire = (): void => {
      fanOuts.delete(signal);
      for (const subscriber of [...subscribers]) subscriber();
      subscribers.clear();
    };
    fan = { subscribers, fire };
    fanOuts.set(signal, fan);
    signal.addEventListener('abort', fire, { once: true });
  }
  const own = fan;
  own.subscribers.add(listener);
  return () => {
    if (!own.subscribers.delete(listener) || own.subscribers.size > 0) return;
    signal.removeEventListener('abort', own.fire);
    if (fanOuts.get(signal) === own) fanOuts.delete(signal);
  };
}
