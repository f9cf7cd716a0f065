/**
 * The HTTP messages the transport sends and receives, independent of the
 * way they are sent (ky/`fetch` or an undici dispatcher).
 * @module
 */

/**
 * A `fetch`-compatible function. Defaults to `globalThis.fetch`, looked up
 * on every request so that msw and other interceptors installed later still
 * see the traffic.
 */
export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

/** One HTTP request, built afresh for every attempt (SMS re-signs each one). */
export interface OutgoingRequest {
  readonly method: 'GET' | 'POST';
  /** Path and query appended to the base URL, e.g. `/hash_scan?api_key=…&hash=…`. */
  readonly path: string;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** What is read of response headers; a WHATWG `Headers` is one. */
export interface ResponseHeaders {
  /** The value of a header (names are case-insensitive), repeated ones joined by `, `; `null` when absent. */
  get(name: string): string | null;
}

/** A complete response: status, headers and the whole body as text. */
export interface IncomingResponse {
  readonly status: number;
  readonly headers: ResponseHeaders;
  readonly text: string;
  /** 1-based number of the attempt that got this response. */
  readonly attempt: number;
}

/**
 * One request on its way: its complete response, and how to cut it short
 * (connection included). The transport needs `response` to reject at once
 * on `abort`: the dispatcher path's does; the ky path's is wrapped (`prompt-abort.ts`).
 */
export interface Sending {
  readonly response: Promise<IncomingResponse>;
  abort(reason: unknown): void;
}
