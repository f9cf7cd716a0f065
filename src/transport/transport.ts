import pRetry, { AbortError } from 'p-retry';
import { onAbort } from '../util/abort-subscriptions.js';
import { ResponseTooLargeError, tooLargeFailure } from './body-limit.js';
import { callerAbortFailure, type Deadline, overBudgetFailure, startDeadline } from './deadline.js';
import type { Exchange, IncomingResponse, OutgoingRequest, TransportFailure, TransportSettings } from './exchange.js';
import { attemptLine, emitLine, type LogFields, silentLogger } from './logger.js';
import { classifyNetworkFailure } from './network-failure.js';
import { promptly } from './prompt-abort.js';
import { redactError } from './redact.js';
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
    this.#resilience = new Resilience(settings.resilience);
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

  /** Runs an exchange to completion: a result, or the client's error. */
  async send<T>(exchange: Exchange<T>): Promise<T> {
    const { retry } = this.#settings;
    const { signal } = exchange;
    const deadline = startDeadline(exchange.totalTimeoutMs ?? this.#settings.totalTimeoutMs);
    let attempts = 0;
    const aborted = (): Error =>
      exchange.fail({
        ...callerAbortFailure(signal?.reason, this.#settings.redact),
        attempts,
        // Only requests that surely never reached the server are retried, so
        // an abort during back-off or before the first attempt sent nothing.
        phase: 'connect',
      });

    const run = async (attempt: number): Promise<T> => {
      if (signal?.aborted) throw new AbortError(aborted());
      // The pre-attempt gate: a 429 pause or the rate limit, then the circuit breaker.
      const held = this.#resilience.pass(signal, aborted);
      if (held !== undefined) await held.catch((error: Error) => Promise.reject(new AbortError(error)));
      if (deadline?.expired) throw new AbortError(exchange.fail(overBudgetFailure(deadline, attempts, 'connect')));
      const refused = this.#resilience.enter(attempts);
      if (refused !== undefined) throw new AbortError(exchange.fail(refused));
      attempts = attempt;
      try {
        return exchange.interpret(this.#resilience.answered(await this.#attempt(exchange, attempt, deadline)));
      } catch (error) {
        // Once the budget is spent, nothing is retried.
        if (retry.retries > 0 && exchange.isRetryable(error) && !deadline?.expired) throw error;
        throw new AbortError(error as Error);
      }
    };

    // Most calls succeed at once: the first attempt runs without setting up the
    // retry loop. A retryable failure is handed to p-retry as its attempt 1, so
    // p-retry alone still decides every retry, its back-off and when to give up.
    let first: unknown;
    try {
      const result = await run(1);
      this.#resilience.succeeded(0);
      return result;
    } catch (error) {
      if (error instanceof AbortError) throw error.originalError;
      first = error;
    }
    let spent = 0;
    const result = await pRetry((attempt) => (attempt === 1 ? Promise.reject(first) : run(attempt)), {
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
          this.#emit('info', `${this.#settings.name}: retrying in ${delay} ms`, {
            client: this.#settings.name,
            attempt: attempts,
            delayMs: delay,
            ...(typeof code === 'string' ? { code } : {}),
          });
        }
        await sleep(delay, signal, aborted);
        return true;
      },
    });
    this.#resilience.succeeded(spent);
    return result;
  }

  /** Counters of this transport: requests, retries, breaker state, retry tokens, throttled time. */
  stats(): TransportStats {
    return this.#resilience.stats();
  }

  /** One attempt: the response with its whole body, under one time-out. */
  async #attempt(
    exchange: Exchange<unknown>,
    attempt: number,
    deadline: Deadline | undefined,
  ): Promise<IncomingResponse> {
    const { baseUrl } = this.#settings;
    const { signal } = exchange;
    const built = exchange.build(attempt);
    // Awaited only when pending, so fixed credentials add no tick to an attempt.
    const request =
      built instanceof Promise
        ? await untilAborted(built, signal, () =>
            exchange.fail({
              ...callerAbortFailure(signal?.reason, this.#settings.redact),
              cause: undefined,
              attempts: attempt - 1,
              phase: 'connect',
            }),
          )
        : built;
    const url = baseUrl + request.path;
    // The attempt's own time-out, cut to what is left of the call's budget.
    const left = deadline?.remaining() ?? Number.POSITIVE_INFINITY;
    const timeoutMs = Math.min(this.#settings.timeoutMs, left);
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let unsubscribe: (() => void) | undefined;
    const started = this.#logs ? performance.now() : 0;

    try {
      const sending = this.#start(url, request, attempt);
      timer = setTimeout(() => {
        timedOut = true;
        sending.abort(new Error('timed out'));
      }, timeoutMs);
      if (signal !== undefined) unsubscribe = onAbort(signal, () => sending.abort(signal.reason));
      // Rejects as soon as the attempt is cut short, even if a custom fetch ignores its signal.
      const response = await sending.response;
      this.#log(response.status < 300 ? 'debug' : 'warn', request.method, url, attempt, started, {
        status: response.status,
        text: response.text,
      });
      return response;
    } catch (error) {
      const failure =
        timedOut && deadline !== undefined && timeoutMs === left
          ? overBudgetFailure(deadline, attempt, 'unknown')
          : this.#failure(error, attempt, timedOut, signal?.reason, signal?.aborted === true);
      this.#log('warn', request.method, url, attempt, started, { code: failure.code });
      throw this.#resilience.failed(failure.code, exchange.fail(failure));
    } finally {
      clearTimeout(timer);
      unsubscribe?.();
    }
  }

  #failure(
    error: unknown,
    attempts: number,
    timedOut: boolean,
    reason: unknown,
    callerAborted: boolean,
  ): TransportFailure {
    const { redact, timeoutMs } = this.#settings;
    if (timedOut) {
      return {
        code: 'TIMEOUT',
        message: `no complete response within ${timeoutMs} ms`,
        cause: undefined,
        attempts,
        phase: 'unknown',
      };
    }
    if (error instanceof ResponseTooLargeError) return tooLargeFailure(error, attempts);
    const network = classifyNetworkFailure(error);
    if (callerAborted) {
      return {
        ...callerAbortFailure(reason, redact),
        cause: undefined,
        attempts,
        // A connect failure that lost the race with the abort still proves nothing was sent.
        phase: network.phase,
      };
    }
    return {
      code: 'NETWORK',
      message: redact(network.description),
      cause: redactError(error, redact),
      attempts,
      phase: network.phase,
    };
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
    this.#emit(level, attemptLine(name, fields), fields);
  }

  #emit(level: 'debug' | 'info' | 'warn', message: string, fields: LogFields): void {
    emitLine(this.#settings.logger, level, message, fields);
  }
}
