/**
 * Sees each response's status as it arrives, on the CLI's own undici agent:
 * a 429 or 503 is push-back for the adaptive limit at once, not after the
 * client has waited out its `Retry-After` and retried. Watches only: every
 * call reaches the handler's own method with the same arguments.
 *
 * Per request, the handler gets two own properties (its status methods,
 * shared functions that call the class's) rather than a proxy or wrapper
 * object: undici reads a handler's methods many times per request.
 */
type Method = (this: Watched, a: unknown, b: unknown, c: unknown, d: unknown) => unknown;
interface Watched {
  onHeaders?: Method;
  onResponseStart?: Method;
  [WATCHER]?: () => void;
  [ORIGINALS]?: { readonly onHeaders: Method | undefined; readonly onResponseStart: Method | undefined };
}
type Dispatch = (options: unknown, handler: Watched) => boolean;

const WATCHER = Symbol('push-back watcher');
const ORIGINALS = Symbol('status methods');
/** Status codes a rate-limited or overloaded service answers with. */
const PUSH_BACK = new Set([429, 503]);

function onHeaders(this: Watched, status: unknown, headers: unknown, resume: unknown, text: unknown): unknown {
  if (PUSH_BACK.has(status as number)) this[WATCHER]?.();
  return this[ORIGINALS]?.onHeaders?.call(this, status, headers, resume, text);
}

function onResponseStart(
  this: Watched,
  controller: unknown,
  status: unknown,
  headers: unknown,
  text: unknown,
): unknown {
  if (PUSH_BACK.has(status as number)) this[WATCHER]?.();
  return this[ORIGINALS]?.onResponseStart?.call(this, controller, status, headers, text);
}

export function watchPushBack(dispatcher: object, onPushBack: () => void): void {
  const target = dispatcher as { dispatch: Dispatch };
  const dispatch = target.dispatch.bind(dispatcher);
  target.dispatch = (options, handler) => {
    const originals = { onHeaders: handler.onHeaders, onResponseStart: handler.onResponseStart };
    handler[ORIGINALS] = originals;
    handler[WATCHER] = onPushBack;
    if (originals.onHeaders !== undefined) handler.onHeaders = onHeaders as Method;
    if (originals.onResponseStart !== undefined) handler.onResponseStart = onResponseStart as Method;
    return dispatch(options, handler);
  };
}
