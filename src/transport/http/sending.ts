import type { KyInstance, Options } from 'ky';
import { SharedAbort } from '../../util/abort-like.js';
import { ResponseTooLargeError, readNodeBody, readWebBody, refuseAnnounced } from './body-limit.js';
import { DispatchExchange, RecordHeaders } from './dispatch-handler.js';
import type { DispatchOptions, UndiciDispatcher } from './dispatcher.js';
import { kyFactory } from './ky-lazy.js';
import { promptly } from './prompt-abort.js';
import {
  DispatchFailure,
  trackRequestWrites,
  untrackedDispatcher,
  type WriteTrackingDispatcher,
} from './request-written.js';
import { USER_AGENT } from './user-agent.js';
import type { FetchLike, IncomingResponse, OutgoingRequest, Sending } from './wire.js';

/** Headers of every request; a request's own headers are merged over them. */
const BASE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'user-agent': USER_AGENT,
  accept: 'application/json',
});

/** A fresh object per request: dispatchers write to it (undici's `ProxyAgent` adds `host`). */
function headersOf(request: OutgoingRequest): Record<string, string> {
  if (request.headers === undefined) return { ...BASE_HEADERS };
  const merged: Record<string, string> = { ...BASE_HEADERS };
  // Header names are case-insensitive: a request's own `Accept` replaces the default one.
  for (const [name, value] of Object.entries(request.headers)) merged[name.toLowerCase()] = value;
  return merged;
}

/** Starts one request on the way a transport chose at construction (ky over `fetch`, or a dispatcher). */
export interface Sender {
  send(url: string, request: OutgoingRequest, attempt: number): Sending;
}

/**
 * Starts attempts through ky, hence through `fetch`: the `fetch` option
 * (`custom`), else `globalThis.fetch` looked up per request, so msw and other
 * interceptors installed later still see it. ky's own retry, time-out and
 * HTTP errors are off: the transport owns all three, so attempts never multiply.
 *
 * Whatever it is given, ky builds per request an `AbortController` and a
 * `Request` following its signal. With a custom `fetch`, ky then clones that
 * `Request` (for its retries, which are off) and calls `custom` with it: a
 * custom `fetch` may read only the `Request` it is given, so it gets the
 * signal and headers through ky. On the default path ky's `beforeRequest`
 * hook ({@link sendOwnRequest}) calls `globalThis.fetch` with the URL and a
 * plain init (method, headers, body, the attempt's one signal, no redirects)
 * and hands ky the response, which ends ky's request there: no clone, and
 * `fetch` builds one `Request` from a string instead of copying ky's, each a
 * `Request` and a signal registration less per request (BENCHMARKS.md).
 * ky's own `Request` (method and URL) is never sent, so it carries neither
 * the body nor the attempt's signal (no `AbortSignal.any` per request). The
 * body is read counted, at most `maxBytes` once decoded; past it the
 * connection is cut.
 *
 * Why the attempt's signal is aborted ("settled") once the body is read:
 * a `Request` built with a signal registers itself with undici's
 * `FinalizationRegistry` and a `WeakRef`, which keep its abort bookkeeping,
 * and through `fetch`'s abort listener the whole response, alive until a full
 * GC; a large batch then holds hundreds of MB of it. An abort after the end
 * unregisters it at once. The connection is kept (undici ignores an abort of
 * a completed request). A large `scanMany` then peaks below the bare `fetch`
 * loop instead of above it; the price is the abort itself (BENCHMARKS.md).
 *
 * The response is wrapped by `promptly`: it rejects as soon as the attempt
 * is cut short, even if a custom `fetch` ignores its signal.
 */
export function kySender(custom: FetchLike | undefined, maxBytes: number): Sender {
  // Created by the first request: ky is evaluated then (see `ky-lazy.ts`).
  let client: KyInstance | undefined;
  return {
    send(url, request, attempt) {
      client ??= kyFactory().create({
        retry: 0,
        timeout: false,
        throwHttpErrors: false,
        // A redirect could downgrade to http: or carry the key to another host.
        redirect: 'manual',
        ...(custom === undefined
          ? { hooks: { beforeRequest: [sendOwnRequest] }, fetch: ownResponse }
          : { headers: BASE_HEADERS }),
      });
      const controller = new AbortController();
      const { signal } = controller;
      let options: Options;
      if (custom === undefined) {
        const init: RequestInit = { method: request.method, headers: headersOf(request), signal, redirect: 'manual' };
        if (request.body !== undefined) init.body = request.body;
        const own: OwnRequest = { method: request.method, [SEND]: { url, init } };
        options = own;
      } else {
        options = { method: request.method, body: request.body ?? null };
        options.signal = signal;
        if (request.headers !== undefined) options.headers = request.headers;
        options.fetch = (input, init) => custom(input as Request, init);
      }
      const response = client(url, options).then(async (res): Promise<IncomingResponse> => {
        try {
          refuseAnnounced(res.headers.get('content-length'), maxBytes, res.status);
          const text = await readWebBody(res.body, maxBytes, res.status);
          // A custom fetch is told nothing after the end: it may take an abort for a cancellation.
          if (custom === undefined) controller.abort(SETTLED);
          return { status: res.status, headers: res.headers, text, attempt };
        } catch (error) {
          if (error instanceof ResponseTooLargeError) controller.abort(error);
          throw error;
        }
      });
      return promptly({ response, abort: (reason) => controller.abort(reason) });
    },
  };
}

/** Sends through an undici dispatcher (see {@link sendWithDispatcher}), tracking request writes when asked. */
export function dispatchSender(
  dispatcher: UndiciDispatcher,
  baseUrl: string,
  trackWrites: boolean,
  maxBytes: number,
): Sender {
  const target = dispatchTarget(baseUrl);
  const tracked = trackWrites ? trackRequestWrites(dispatcher) : untrackedDispatcher(dispatcher);
  return { send: (_url, request, attempt) => sendWithDispatcher(tracked, target, request, attempt, maxBytes) };
}

/**
 * The option under which a request on the default path carries its own URL
 * and init to {@link sendOwnRequest}: ky passes options it does not know
 * through to its hooks.
 */
const SEND = 'hashscanSend';

/** What a request on the default path is sent with, and once sent, its response. */
interface OwnSending {
  readonly url: string;
  readonly init: RequestInit;
  sent?: Promise<Response>;
}

/** ky's options for one request on the default path: the method, and what `fetch` is called with. */
type OwnRequest = Options & { readonly [SEND]: OwnSending };

/**
 * ky's `beforeRequest` hook on the default path: sends the attempt's own
 * request (see {@link kySender}) and hands ky its response, which ky takes
 * as the answer (a hook that returns a `Response` ends the request there).
 * ky then neither clones its `Request` for retries (which are off) nor calls
 * its `fetch` option: one `Request` and its signal registration less per request.
 */
function sendOwnRequest(_request: Request, options: unknown): Promise<Response> {
  const own = (options as OwnRequest)[SEND];
  own.sent = globalThis.fetch(own.url, own.init);
  return own.sent;
}

/**
 * ky's `fetch` option on the default path, called only when ky did not take
 * the hook's answer as a `Response`: a `fetch` put in `globalThis` whose
 * responses are another class (undici's own `fetch` from npm, a polyfill).
 * It hands ky the response already on its way, so nothing is sent twice.
 */
function ownResponse(_input: unknown, options?: unknown): Promise<Response> {
  const sent = (options as OwnRequest | undefined)?.[SEND]?.sent;
  return sent ?? Promise.reject(new TypeError('the request was not sent'));
}

/** The abort reason of an attempt whose response was read in full (see {@link kySender}). */
const SETTLED = 'settled';

/** Where a dispatcher sends: the base URL split into origin and path prefix. */
interface DispatchTarget {
  readonly origin: string;
  readonly pathPrefix: string;
}

function dispatchTarget(baseUrl: string): DispatchTarget {
  const { origin } = new URL(baseUrl);
  return { origin, pathPrefix: baseUrl.slice(origin.length) };
}

/**
 * Sends through an undici dispatcher: no WHATWG `Request`, `Response` or
 * `AbortSignal` per request, so far less CPU than `fetch` (BENCHMARKS.md). Every
 * undici dispatcher has `dispatch()`, which takes the transport's own
 * response handler (`dispatch-handler.ts`: no body stream, request handler or
 * signal per request, so less CPU than `request()`, BENCHMARKS.md); a hand-written
 * dispatcher with only `request()` is read through its body stream.
 * Failures are wrapped as `fetch` wraps them (`fetch failed`, `terminated`),
 * so errors look the same whichever way a request went, and carry whether the
 * request reached a socket (see `request-written.ts`). One promise carries the
 * whole attempt, and `abort` rejects it at once (whatever the dispatcher does
 * with its signal).
 */
function sendWithDispatcher(
  tracked: WriteTrackingDispatcher,
  target: DispatchTarget,
  request: OutgoingRequest,
  attempt: number,
  maxBytes: number,
): Sending {
  const { dispatcher } = tracked;
  const plain: DispatchOptions = {
    origin: target.origin,
    path: target.pathPrefix + request.path,
    method: request.method,
    headers: headersOf(request),
    ...(request.body !== undefined && { body: request.body }),
    maxRedirections: 0,
  };
  if (typeof dispatcher.dispatch === 'function') {
    return new DispatchExchange(tracked, plain, maxBytes, attempt).start((o, h) => dispatcher.dispatch?.(o, h));
  }
  // `request()` is cut through a signal.
  const signal = new SharedAbort();
  const options: DispatchOptions = { ...plain, signal };
  let cut: ((error: Error) => void) | undefined;
  const response = new Promise<IncomingResponse>((resolve, reject) => {
    cut = reject;
    /** A body that failed: too large (the connection is then cut, the rest never read), or broken off. */
    const bodyFailed = (error: unknown): void => {
      if (error instanceof ResponseTooLargeError) {
        signal.abort(error);
        reject(error);
      } else {
        reject(new DispatchFailure('terminated', error, tracked.written(options)));
      }
    };
    tracked.dispatcher.request(options).then(
      (answer) => {
        const status = answer.statusCode;
        try {
          const length = answer.headers['content-length'];
          refuseAnnounced(typeof length === 'string' ? length : undefined, maxBytes, status);
          readNodeBody(answer.body, maxBytes, status).then(
            (text) => resolve({ status, headers: new RecordHeaders(answer.headers), text, attempt }),
            bodyFailed,
          );
        } catch (error) {
          bodyFailed(error);
        }
      },
      (error: unknown) => reject(new DispatchFailure('fetch failed', error, tracked.written(options))),
    );
  });
  return {
    response,
    abort: (reason) => {
      signal.abort(reason);
      cut?.(new DispatchFailure('fetch failed', new Error('aborted'), tracked.written(options)));
    },
  };
}
