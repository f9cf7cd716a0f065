/**
 * The part of an undici `Dispatcher` (`Agent`, `Pool`, `ProxyAgent`,
 * `MockAgent`, …) that the opt-in `dispatcher` transport uses. Structural, so
 * the package depends on no undici version: dispatchers of undici 6, 7 and 8
 * fit. Requests go through `dispatch()` with a handler of the transport's own
 * when the dispatcher has one (every undici dispatcher does), else through `request()`.
 *
 * @example
 * ```ts
 * import { Agent } from 'undici'
 * const client = new HashScanClient({ dispatcher: new Agent({ connections: 64 }) })
 * ```
 */
export interface UndiciDispatcher {
  /** Sends one request and resolves once its status and headers are in (undici's `Dispatcher.request()`). */
  request(options: DispatchOptions): Promise<DispatchResponse>;
  /** undici's low-level `Dispatcher.dispatch()`; the handler speaks undici 6's and undici 8's handler interfaces. */
  dispatch?(options: DispatchOptions, handler: object): boolean;
}

/** The options the transport passes to {@link UndiciDispatcher.request}. */
export interface DispatchOptions {
  /** Scheme, host and port of the base URL, e.g. `https://hashscan.example.com`. */
  readonly origin: string;
  /** Path prefix of the base URL, path and query, e.g. `/v1/hash_scan?api_key=…&hash=…`. */
  readonly path: string;
  /** The HTTP method. */
  readonly method: 'GET' | 'POST';
  /** Request headers, lower-case names: `user-agent`, `accept` and the request's own. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body of a POST, already encoded. */
  readonly body?: string;
  /** Always 0: a redirect could downgrade to `http:` or carry the key to another host. */
  readonly maxRedirections: 0;
  /** Cuts the request short on time-out or caller abort (`request()` only: `dispatch()` is cut through its handler). */
  readonly signal?: DispatchSignal;
}

/**
 * The abort signal passed to {@link UndiciDispatcher.request}: `EventTarget`-like,
 * which undici's `request()` accepts. It is not an `AbortSignal`, whose
 * creation alone would cost several microseconds per request.
 */
export interface DispatchSignal {
  /** Whether the request has been cut short. */
  readonly aborted: boolean;
  /** Why it was cut short: a time-out or the caller's abort reason. */
  readonly reason: unknown;
  /** Calls `listener` once when the request is cut short. */
  addEventListener(type: 'abort', listener: () => void): void;
  /** Removes a listener added by `addEventListener`. */
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** What the transport reads of undici's `ResponseData`. */
export interface DispatchResponse {
  /** The HTTP status code. */
  readonly statusCode: number;
  /** Response headers, lower-case names; repeated ones as arrays. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /**
   * The response body: undici's `BodyReadable`, read chunk by chunk so that
   * its size is counted (`maxResponseBytes`); leaving early destroys it.
   */
  readonly body: AsyncIterable<Uint8Array>;
}
