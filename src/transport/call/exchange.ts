import type { ClientName, OperationRef } from '../../observe/events.js';
import type { DescribeResponse, Logger } from '../../observe/logger.js';
import type { Observers } from '../../observe/observers.js';
import type { Redactor } from '../../secrets/redact.js';
import type { AbortLike } from '../../util/abort-like.js';
import type { UndiciDispatcher } from '../http/dispatcher.js';
import type { FailurePhase } from '../http/network-failure.js';
import type { FetchLike, IncomingResponse, OutgoingRequest } from '../http/wire.js';
import type { FleetGate } from '../resilience/fleet-gate.js';
import type { ResolvedResilience } from '../resilience/resilience-options.js';
import type { Deadline } from './call-deadline.js';
import type { ResolvedRetry } from './retry-options.js';

export type { FetchLike, IncomingResponse, OutgoingRequest } from '../http/wire.js';

/*
 * The contract between the transport and the clients: its settings, one
 * request and its response, a failure, and the exchange a client drives.
 */

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
  /** The logger option as given (its kind is shown by `toJSON()`); it reads the calls through {@link observers}. */
  readonly logger: Logger;
  /**
   * Everybody who observes this client's calls: the logger's subscriber
   * first (unless the logger is silent), then any internal observer. Not a
   * public option.
   */
  readonly observers: Observers;
  /** Scrubs secrets from every URL, message and stack the transport emits. */
  readonly redact: Redactor;
  /** Which client this transport serves, as data: prefix of log lines, `client` of events. */
  readonly name: ClientName;
  /** Retry budget, circuit breaker and rate limits (see `resilience/`). */
  readonly resilience: ResolvedResilience;
  /** Pause and quota shared with other replicas (the `fleet` option); `undefined` without one. */
  readonly fleetGate?: FleetGate | undefined;
  /** Reads the service's code and a hint off a response for its `attempt:end` event (only when observed). */
  readonly describeResponse?: DescribeResponse | undefined;
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
  /** Set when a wait before an attempt (a pause, a rate limit) could not fit in the budget: how long it holds, in ms. */
  readonly retryAfterMs?: number | undefined;
}

/** How a client drives one logical call through the transport. */
export interface Exchange<T> {
  /**
   * Builds the request of attempt number `attempt` (1-based). A promise only
   * when something must be fetched first (credentials from a provider); an
   * error it throws or rejects with goes to the transport's retry decision like
   * any other (the clients' own such errors are not retryable).
   */
  build(attempt: number): OutgoingRequest | Promise<OutgoingRequest>;
  /** Turns a response into a result, or throws the client's own error. */
  interpret(response: IncomingResponse): T;
  /** Turns a transport failure into the client's own error. */
  fail(failure: TransportFailure): Error;
  /** Whether an error thrown by `interpret` or `fail` may be retried. */
  isRetryable(error: unknown): boolean;
  /**
   * The extra-round seam: whether a failed attempt earns one more round of
   * this exchange outside the retry policy, because the exchange itself can
   * fix what the service refused. `resign`: sign the request again (a refused
   * timestamp or nonce); `refresh`: ask the credential source again (an auth
   * refusal of a rotated key; the hook invalidates or refreshes the source,
   * and the next {@link build} uses the new credentials). `rounds` counts the
   * extra rounds this call was already granted, so a hook bounds them.
   *
   * The transport's own loop runs the round at once (no back-off, no retry
   * spent), under the same deadline and attempt counter, and reports it to
   * observers as a `retry` event of that kind. A promise may be returned (a
   * provider asked again); a hook that rejects ends the call with its error.
   * Never called once the caller's signal has aborted.
   */
  extraRound?(error: unknown, rounds: number): ExtraRound | undefined | Promise<ExtraRound | undefined>;
  readonly signal?: AbortLike | undefined;
  /** The operation, e.g. `scan`: each operation on a host has its own circuit breaker. @defaultValue `call` */
  readonly operation?: string | undefined;
  /**
   * What the call is about when the same input may fail the same way for
   * every caller (a hash): the breaker counts its failures once per window.
   * Unset when every call is distinct (a send).
   */
  readonly subject?: string | undefined;
  /**
   * The call's deadline, worked out once by the client (the call's budget,
   * else the client's `totalTimeoutMs`): it starts before the transport when
   * a shared-store read or the sending limits come first, and attempts get
   * only what is left. `undefined`: no budget.
   */
  readonly deadline?: Deadline | undefined;
  /** The operation this call serves, carried by its events (see `observe/events.ts`). */
  readonly op?: OperationRef | undefined;
}

/** What an extra round of an exchange does (see {@link Exchange.extraRound}). */
export type ExtraRound = 'resign' | 'refresh';
