import type { DispatchOptions, UndiciDispatcher } from './dispatcher.js';

/**
 * Whether a request may have been written to a socket: the one fact that
 * decides if a failed, non-idempotent request may be sent again.
 *
 * - `false`: it was never handed to a connected socket (DNS, refused
 *   connection, TLS handshake, a dispatcher closed or a request aborted while
 *   queued): nothing was sent, whatever the error says.
 * - `true`: it was handed to a socket, so some or all of it may have reached
 *   the server.
 * - `undefined`: the way it went cannot tell (`fetch`): the error code decides.
 */
export type RequestWritten = boolean | undefined;

/** A dispatch function of undici, either handler API (`onConnect` or `onRequestStart`). */
type Dispatch = (options: object, handler: object) => boolean;
type Compose = (interceptor: (dispatch: Dispatch) => Dispatch) => UndiciDispatcher;

/** A dispatcher that remembers, per request, whether undici gave it a socket. */
export interface WriteTrackingDispatcher {
  readonly dispatcher: UndiciDispatcher;
  /** The fact for a request sent with exactly these options (see {@link RequestWritten}). */
  written(options: DispatchOptions): RequestWritten;
}

/**
 * undici calls `onConnect` (legacy handlers) or `onRequestStart` (undici 7
 * handlers) "before the request is dispatched on the socket", and never for a
 * request that failed before that. The wrapper notes the call and forwards
 * every handler method to the original, bound to it (handlers keep private fields).
 */
function watchHandler(handler: object, onStart: () => void): object {
  return new Proxy(handler, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      if (key === 'onConnect' || key === 'onRequestStart') {
        return (...args: unknown[]): unknown => {
          onStart();
          return Reflect.apply(value, target, args);
        };
      }
      return (...args: unknown[]): unknown => Reflect.apply(value, target, args);
    },
  });
}

/** A dispatcher used as is: its failures are classified by their codes alone. */
export function untrackedDispatcher(dispatcher: UndiciDispatcher): WriteTrackingDispatcher {
  return { dispatcher, written: () => undefined };
}

/**
 * undici's `MockAgent` fails a `replyWithError` interception without the
 * connection step, whatever error it simulates (a reset after writing, say):
 * there the fact would contradict what the same error means on a real
 * socket, so tests with a `MockAgent` are classified by error code.
 */
const isMockAgent = (dispatcher: UndiciDispatcher): boolean =>
  typeof (dispatcher as { disableNetConnect?: unknown }).disableNetConnect === 'function';

/**
 * Composes an interceptor onto a dispatcher (undici's public
 * `Dispatcher.compose()`) that records which requests reached a socket. A dispatcher without `compose` (a hand-written double) is
 * used as is, and every fact is `undefined`; so is a `MockAgent`.
 */
export function trackRequestWrites(dispatcher: UndiciDispatcher): WriteTrackingDispatcher {
  const compose: unknown = (dispatcher as { compose?: unknown }).compose;
  if (typeof compose !== 'function' || isMockAgent(dispatcher)) return untrackedDispatcher(dispatcher);
  // Keyed by the options object, which undici passes unchanged from `request()` to `dispatch()`.
  const dispatched = new WeakSet<object>();
  const started = new WeakSet<object>();
  const interceptor =
    (dispatch: Dispatch): Dispatch =>
    (options, handler) => {
      dispatched.add(options);
      return dispatch(
        options,
        watchHandler(handler, () => started.add(options)),
      );
    };
  const tracked = (compose as Compose).call(dispatcher, interceptor);
  return {
    dispatcher: tracked,
    written: (options) => (dispatched.has(options) ? started.has(options) : undefined),
  };
}

/**
 * A failure of the dispatcher path, worded as `fetch` words its own
 * (`fetch failed`, `terminated`), carrying whether the request reached a socket.
 */
export class DispatchFailure extends TypeError {
  /** See {@link RequestWritten}. */
  readonly requestWritten: RequestWritten;

  constructor(message: 'fetch failed' | 'terminated', cause: unknown, requestWritten: RequestWritten) {
    super(message, { cause });
    this.requestWritten = requestWritten;
  }
}

/**
 * What an error says about the request having been written: the dispatcher's
 * fact when it has one; for `fetch`, a body that broke off (`terminated`)
 * proves the response had begun, hence that the request was written.
 */
export function requestWrittenOf(error: unknown): RequestWritten {
  if (error instanceof DispatchFailure) return error.requestWritten;
  if (error instanceof TypeError && error.message === 'terminated') return true;
  return undefined;
}
