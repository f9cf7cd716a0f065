import pRetry, { AbortError } from 'p-retry';
import { onAbort } from '../util/abort-subscriptions.js';
import { attemptFailure } from './attempt-failure.js';
import { callerAbortFailure, type Deadline, overBudgetFailure, startDeadline } from './deadline.js';
import type { Exchange, IncomingResponse, OutgoingRequest, TransportSettings } from './exchange.js';
import { attemptLine, emitLine, type LogFields, silentLogger } from './logger.js';
import { promptly } from './prompt-abort.js';
import { trackRequestWrites, untrackedDispatcher } from './request-written.js';
import { Resilience, type TransportStats } from './resilience/resilience.js';
import { retryDelay } from './retry-options.js';
import { dispatchTarget, kySender, type Sending, sendWithDispatcher } from './sending.js';
import { sleep } from './sleep.js';
import { untilAborted } from './until-aborted.js';

export type {
  Exchange,
  FetchLike,
  IncomingResponse,
  OutgoingRequest,
  ResponseHeaders,
  TransportFailure,
  TransportSettings,
} from './exchange.js';

/** What one call keeps across its attempts. */
interface Call {
  /** Attempts started so far. */
  attempts: number;
  readonly deadline: Deadline | undefined;
  /** The client's error for a caller abort before or between attempts (nothing was sent then). */
  readonly aborted: () => Error;
}

/** Errors may carry a server-requested delay (from `Retry-After`). */
interface RetryHint {
  readonly retryAfterMs?: number | undefined;
}

/**
 * The HTTP layer both clients share: per-attempt time-out, caller abort,
 * retries with back-off, logging with redaction. p-retry owns the retry loop,
 * entered only once a first attempt has failed in a retryable way; each
 * attempt gets its own time-out covering headers and body.
 *
 * Requests go through ky to `fetch` (the `fetch` option, else `globalThis.fetch`
 * looked up per request, so msw and other interceptors still see them), or,
 * when the `dispatcher` option is set, to undici's `dispatcher.request()`.
 */
export class Transport {
  readonly #settings: TransportSettings;
  readonly #logs: boolean;
  /**
   * Starts one attempt on the way chosen at construction: ky over `fetch`, or
   * the dispatcher; its response rejects at once when it is aborted.
   */
  readonly #start: (url: string, request: OutgoingRequest, attempt: number) => Sending;
  readonly #resilience: Resilience;

  constructor(settings: TransportSettings) {
    this.#settings = settings;
    this.#resilience = new Resilience(settings.resilience, settings.fleetGate);
    this.#logs = settings.logger !== silentLogger;
    const { dispatcher, maxResponseBytes } = settings;
    if (dispatcher === undefined) {
      const send = kySender(settings.fetch, maxResponseBytes);
      this.#start = (url, request, attempt) => promptly(send(url, request, attempt));
    } else {
      const target = dispatchTarget(settings.baseUrl);
      const tracked = settings.trackWrites ? trackRequestWrites(dispatcher) : untrackedDispatcher(dispatcher);
      this.#start = (_url, request, attempt) => sendWithDispatcher(tracked, target, request, attempt, maxResponseBytes);
    }
  }

  /**
   * Runs an exchange to completion: a result, or the client's error. The
   * path of a call is a chain of `then`s, not `async` frames: a lookup
   * answered in tens of microseconds pays for each frame and promise.
   */
  send<T>(exchange: Exchange<T>): Promise<T> {
    const call: Call = {
      attempts: 0,
      deadline: startDeadline(exchange.totalTimeoutMs ?? this.#settings.totalTimeoutMs),
      aborted: () =>
        exchange.fail({
          ...callerAbortFailure(exchange.signal?.reason, this.#settings.redact),
          attempts: call.attempts,
          // Only requests that surely never reached the server are retried, so
          // an abort during back-off or before the first attempt sent nothing.
          phase: 'connect',
        }),
    };
    // Most calls succeed at once: the first attempt runs without setting up the
    // retry loop. A retryable failure is handed to p-retry as its attempt 1, so
    // p-retry alone still decides every retry, its back-off and when to give up.
    return this.#attempt(exchange, 1, call).then(
      (result) => {
        this.#resilience.succeeded(0);
        return result;
      },
      (error: unknown) => {
        if (error instanceof AbortError) throw error.originalError;
        return this.#retry(exchange, call, error);
      },
    );
  }

  /** Counters of this transport: requests, retries, breaker state, retry tokens, throttled time. */
  stats(): TransportStats {
    return this.#resilience.stats();
  }

  /** The retries after a first attempt that failed in a retryable way (`first`). */
  async #retry<T>(exchange: Exchange<T>, call: Call, first: unknown): Promise<T> {
    const { retry } = this.#settings;
    const { deadline } = call;
    let spent = 0;
    const result = await pRetry(
      (attempt) => (attempt === 1 ? Promise.reject(first) : this.#attempt(exchange, attempt, call)),
      {
        retries: retry.retries,
        minTimeout: 0,
        // The back-off wait lives here so that it can honour Retry-After and
        // end at once when the caller aborts.
        shouldRetry: async ({ error, retriesConsumed }) => {
          const delay = retryDelay(retriesConsumed, (error as RetryHint).retryAfterMs, retry);
          // A back-off that ends past the budget leaves no time to try: the last error stands.
          if (delay === undefined || (deadline !== undefined && delay >= deadline.remaining())) return false;
          // The retry budget and the circuit breaker get a say; p-retry still owns the loop.
          const cost = this.#resilience.spendRetry(error);
          if (cost === undefined) return false;
          spent = cost;
          if (this.#logs) {
            const code = (error as { code?: unknown }).code;
            emitLine(this.#settings.logger, 'info', `${this.#settings.name}: retrying in ${delay} ms`, {
              client: this.#settings.name,
              attempt: call.attempts,
              delayMs: delay,
              ...(typeof code === 'string' ? { code } : {}),
            });
          }
          await sleep(delay, exchange.signal, call.aborted);
          return true;
        },
      },
    );
    this.#resilience.succeeded(spent);
    return result;
  }

  /**
   * One attempt, gates first (a 429 pause or the rate limit, then the circuit
   * breaker): its interpreted result, or its error, wrapped in p-retry's
   * `AbortError` when it must not be retried. Never throws: it rejects.
   */
  #attempt<T>(exchange: Exchange<T>, attempt: number, call: Call): Promise<T> {
    const { signal } = exchange;
    if (signal?.aborted) return Promise.reject(new AbortError(call.aborted()));
    const held = this.#resilience.pass(signal, call.aborted);
    if (held === undefined) return this.#enter(exchange, attempt, call);
    return held.then(
      () => this.#enter(exchange, attempt, call),
      (error: Error) => Promise.reject(new AbortError(error)),
    );
  }

  /** Past the rate gate: the call's budget and the circuit breaker, then the attempt itself. */
  #enter<T>(exchange: Exchange<T>, attempt: number, call: Call): Promise<T> {
    const { deadline } = call;
    if (deadline?.expired) {
      return Promise.reject(new AbortError(exchange.fail(overBudgetFailure(deadline, call.attempts, 'connect'))));
    }
    const refused = this.#resilience.enter(call.attempts);
    if (refused !== undefined) return Promise.reject(new AbortError(exchange.fail(refused)));
    call.attempts = attempt;
    const settle = (error: unknown): never => {
      // Once the budget is spent, nothing is retried.
      if (this.#settings.retry.retries > 0 && exchange.isRetryable(error) && !deadline?.expired) throw error;
      throw new AbortError(error as Error);
    };
    let received: Promise<IncomingResponse>;
    try {
      received = this.#receive(exchange, attempt, deadline);
    } catch (error) {
      // A request that could not be built (SMS: bad input) ends the call as is.
      return Promise.reject(error).catch(settle);
    }
    return received.then((response) => {
      try {
        return exchange.interpret(this.#resilience.answered(response));
      } catch (error) {
        return settle(error);
      }
    }, settle);
  }

  /** The request of an attempt, then its response with the whole body, under one time-out. */
  #receive(exchange: Exchange<unknown>, attempt: number, deadline: Deadline | undefined): Promise<IncomingResponse> {
    const { signal } = exchange;
    const built = exchange.build(attempt);
    // Awaited only when pending, so fixed credentials add no tick to an attempt.
    if (!(built instanceof Promise)) return this.#exchange(exchange, built, attempt, deadline);
    return untilAborted(built, signal, () =>
      exchange.fail({
        ...callerAbortFailure(signal?.reason, this.#settings.redact),
        cause: undefined,
        attempts: attempt - 1,
        phase: 'connect',
      }),
    ).then((request) => this.#exchange(exchange, request, attempt, deadline));
  }

  /**
   * Sends one request and waits for its whole response, under the attempt's
   * own time-out (cut to what is left of the call's budget) and the caller's
   * signal. Not `async`: one `then` per attempt, no frame.
   */
  #exchange(
    exchange: Exchange<unknown>,
    request: OutgoingRequest,
    attempt: number,
    deadline: Deadline | undefined,
  ): Promise<IncomingResponse> {
    const { signal } = exchange;
    const url = this.#settings.baseUrl + request.path;
    const left = deadline?.remaining() ?? Number.POSITIVE_INFINITY;
    const timeoutMs = Math.min(this.#settings.timeoutMs, left);
    const started = this.#logs ? performance.now() : 0;
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let unsubscribe: (() => void) | undefined;
    const failed = (error: unknown): never => {
      clearTimeout(timer);
      unsubscribe?.();
      const failure =
        timedOut && deadline !== undefined && timeoutMs === left
          ? overBudgetFailure(deadline, attempt, 'unknown')
          : attemptFailure(error, attempt, {
              timedOut,
              timeoutMs: this.#settings.timeoutMs,
              reason: signal?.reason,
              callerAborted: signal?.aborted === true,
              redact: this.#settings.redact,
            });
      if (this.#logs) this.#log('warn', request.method, url, attempt, started, { code: failure.code });
      throw this.#resilience.failed(failure.code, exchange.fail(failure));
    };
    let sending: Sending;
    try {
      sending = this.#start(url, request, attempt);
    } catch (error) {
      return Promise.reject(error).catch(failed);
    }
    timer = setTimeout(() => {
      timedOut = true;
      sending.abort(new Error('timed out'));
    }, timeoutMs);
    if (signal !== undefined) unsubscribe = onAbort(signal, () => sending.abort(signal.reason));
    // Rejects as soon as the attempt is cut short, even if a custom fetch ignores its signal.
    return sending.response.then((response) => {
      clearTimeout(timer);
      unsubscribe?.();
      if (this.#logs) {
        const { status, text } = response;
        this.#log(status < 300 ? 'debug' : 'warn', request.method, url, attempt, started, { status, text });
      }
      return response;
    }, failed);
  }

  /** One line per attempt; the fields go along only to a `structured` logger. */
  #log(
    level: 'debug' | 'warn',
    method: string,
    url: string,
    attempt: number,
    started: number,
    outcome: { status?: number; text?: string; code?: string },
  ): void {
    if (!this.#logs) return;
    const { name, redact, describeResponse } = this.#settings;
    const note =
      outcome.status !== undefined && outcome.text !== undefined
        ? describeResponse?.(outcome.status, outcome.text)
        : undefined;
    const fields: LogFields = {
      client: name,
      method,
      url: redact(url),
      ...(outcome.status === undefined ? {} : { status: outcome.status }),
      ...(outcome.code === undefined ? {} : { code: outcome.code }),
      ...(note?.serviceCode === undefined ? {} : { serviceCode: redact(note.serviceCode) }),
      ...(note?.hint === undefined ? {} : { hint: note.hint }),
      durationMs: Math.round(performance.now() - started),
      attempt,
    };
    emitLine(this.#settings.logger, level, attemptLine(name, fields), fields);
  }
}
