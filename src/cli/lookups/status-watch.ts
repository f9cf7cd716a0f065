/**
 * Sees each response's status as it arrives, on the CLI's own undici agent:
 * a 429 or 503 is push-back for the adaptive limit at once, not after the
 * client has waited out its `Retry-After` and retried (when its counters
 * would show it). Watches only: the handler's every call goes through as is.
 */
type Handler = Record<string | symbol, unknown>;
type Dispatch = (options: unknown, handler: Handler) => boolean;

/** Status codes a rate-limited or overloaded service answers with. */
const PUSH_BACK = new Set([429, 503]);

export function watchPushBack(dispatcher: object, onPushBack: () => void): void {
  const target = dispatcher as { dispatch: Dispatch };
  const dispatch = target.dispatch.bind(dispatcher);
  const traps: ProxyHandler<Handler> = {
    get(handler, key) {
      const value = handler[key];
      if (typeof value !== 'function') return value;
      if (key === 'onHeaders') {
        return (status: number, ...rest: unknown[]) => {
          if (PUSH_BACK.has(status)) onPushBack();
          return value.call(handler, status, ...rest);
        };
      }
      if (key === 'onResponseStart') {
        return (controller: unknown, status: number, ...rest: unknown[]) => {
          if (PUSH_BACK.has(status)) onPushBack();
          return value.call(handler, controller, status, ...rest);
        };
      }
      return value.bind(handler);
    },
  };
  target.dispatch = (options, handler) => dispatch(options, new Proxy(handler, traps));
}
