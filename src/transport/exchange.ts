import type { AbortLike } from '../util/abort-like.js';
import type { UndiciDispatcher } from './dispatcher.js';
import type { DescribeResponse, Logger } from './logger.js';
import type { FailurePhase } from './network-failure.js';
import type { Redactor } from './redact.js';
import type { FleetGate } from './resilience/fleet-gate.js';
import type { ResolvedResilience } from './resilience/resilience-options.js';
import type { ResolvedRetry } from './retry-options.js';

/*
 * The contract between the transport and the clients: its settings, one
 * request and its response, a failure, and the exchange a client drives.
 */

/**
 * A `fetch`-compatible function. Defaults to `globalThis.fetch`, looked up
 * on every request so that msw and other interceptors installed later still
 * see the traffic.
 */
export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

/** Settings of one {@link Transport}; clients resolve and validate them first. */
export interface TransportSettings {
  /** Checked base URL without trailing slash (see `parseBaseUrl`). */
  readonly baseUrl: string;
  readonly timeoutMs: number;
  /** Budget of a whole call, attempts and back-off included; `undefined` for none. */
  readonly totalTimeoutMs: number | undefined;
  /** Most bytes a decoded response body may hold. */
  readonly maxResponseBytes: number;
  readonly retry: ResolvedRetry;
  readonly fetch: FetchLike | undefined;
  /** Sends with undici's `dispatcher.request()` instead of `fetch` (opt-in, never with `fetch`). */
  readonly dispatcher: UndiciDispatcher | undefined;
  /**
   * Records on the dispatcher path whether each request reached a socket, so
   * that fact (not an error code) decides the failure phase. Costs a few
   * microseconds per request; worth it where a repeat is harmful (SMS).
   */
  readonly trackWrites?: boolean;
  readonly logger: Logger;
  /** Scrubs secrets from every URL, message and stack the transport emits. */
  readonly redact: Redactor;
  /** Prefix of log lines, e.g. `hashscan`. */
  readonly name: string;
  /** Retry budget, circuit breaker and rate limits (see `resilience/`). */
  readonly resilience: ResolvedResilience;
  /** Pause and quota shared with other replicas (the `fleet` option); `undefined` without one. */
  readonly fleetGate?: FleetGate | undefined;
  /** Reads the service's code and a hint off a response for its log line (only when logging). */
  readonly describeResponse?: DescribeResponse | undefined;
}

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

/** Why no complete response could be had. */
export interface TransportFailure {
  /**
   * `RESPONSE_TOO_LARGE`: the body passed `maxResponseBytes` (see `status`); the connection was cut.
   * `CIRCUIT_OPEN`: the circuit breaker refused the attempt; nothing was sent.
   */
  readonly code: 'TIMEOUT' | 'NETWORK' | 'ABORTED' | 'RESPONSE_TOO_LARGE' | 'CIRCUIT_OPEN';
  /** Redacted, human-readable. */
  readonly message: string;
  /** Redacted copy of the underlying error chain. */
  readonly cause: Error | undefined;
  /** Attempts started so far (0 when aborted before the first). */
  readonly attempts: number;
  /** Whether the request may have reached the server. */
  readonly phase: FailurePhase;
  /** HTTP status of the response whose body was too large. */
  readonly status?: number | undefined;
  /**
   * Set on a `TIMEOUT` that ends the call: its budget (`totalTimeoutMs`) ran
   * out, or the caller's signal timed out. Unset on one attempt's time-out.
   */
  readonly budgetSpent?: boolean | undefined;
}

/** How a client drives one logical call through the transport. */
export interface Exchange<T> {
  /**
   * Builds the request of attempt number `attempt` (1-based). A promise only
   * when something must be fetched first (credentials from a provider); an
   * error it throws or rejects with ends the call as is, never retried.
   */
  build(attempt: number): OutgoingRequest | Promise<OutgoingRequest>;
  /** Turns a response into a result, or throws the client's own error. */
  interpret(response: IncomingResponse): T;
  /** Turns a transport failure into the client's own error. */
  fail(failure: TransportFailure): Error;
  /** Whether an error thrown by `interpret` or `fail` may be retried. */
  isRetryable(error: unknown): boolean;
  readonly signal?: AbortLike | undefined;
  /** This call's budget, overriding the client's `totalTimeoutMs`. */
  readonly totalTimeoutMs?: number | undefined;
}
