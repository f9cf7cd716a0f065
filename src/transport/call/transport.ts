import type { Observers } from '../../observe/observers.js';
import { sleep } from '../../util/sleep.js';
import { untilAborted } from '../../util/until-aborted.js';
import { promptly } from '../http/prompt-abort.js';
import { trackRequestWrites, untrackedDispatcher } from '../http/request-written.js';
import { dispatchTarget, kySender, sendWithDispatcher } from '../http/sending.js';
import { type BreakerTicket, Resilience, type TransportStats } from '../resilience/resilience.js';
import type { WaitKind, WaitLimit } from '../resilience/wait-limit.js';
import { type AttemptContext, sendAttempt } from './attempt.js';
import { gateListeners, retryEvent } from './call-events.js';
import {
  callerAbortFailure,
  type Deadline,
  overBudgetFailure,
  startDeadline,
  waitPastBudgetFailure,
} from './deadline.js';
import type { Exchange, ExtraRound, IncomingResponse, TransportSettings } from './exchange.js';
import { retryDelay } from './retry-options.js';

export type {
  Exchange,
  ExtraRound,
  FetchLike,
  IncomingResponse,
  TransportFailure,
  TransportSettings,
} from './exchange.js';

/** What one call keeps across its attempts: one counter, one deadline, its breaker admission; the gates' {@link WaitLimit}. */
interface Call extends BreakerTicket, WaitLimit {
  /** Attempts started so far: every round's, numbered on. */
  attempts: number;
  /** Back-off retries granted so far (extra rounds are not retries). */
  retries: number;
  /** Extra rounds granted so far (see `Exchange.extraRound`). */
  rounds: number;
  /** Retry tokens the last retry cost, given back when the call succeeds. */
  spent: number;
  readonly deadline: Deadline | undefined;
  /** The client's error for a caller abort before or between attempts (nothing was sent then). */
  readonly aborted: () => Error;
}

/** Errors may carry a server-requested delay (from `Retry-After`). */
interface RetryHint {
  readonly retryAfterMs?: number | undefined;
  readonly code?: unknown;
}

/** An attempt a gate refused (caller abort, spent budget, open circuit): the call ends with `error`, nothing to decide. */
class Refused {
  constructor(readonly error: Error) {}
}

/**
 * The HTTP layer both clients share: per-attempt time-out, caller abort,
 * retries with back-off and extra rounds, all in one loop with one attempt
 * counter and one deadline, reported to the client's observers.
 *
 * Requests go through ky to `fetch` (the `fetch` option, else `globalThis.fetch`
 * looked up per request, so msw and other interceptors still see them), or,
 * when the `dispatcher` option is set, to undici's `dispatcher.request()`.
 */
export class Transport {
  readonly #settings: TransportSettings;
  readonly #resilience: Resilience;
  readonly #observers: Observers;
  readonly #attempts: AttemptContext;

  constructor(settings: TransportSettings) {
    this.#settings = settings;
    this.#observers = settings.observers;
    const { host } = new URL(settings.baseUrl);
    const { onBreaker, onPause } = gateListeners(settings.observers, settings.name);
    this.#resilience = new Resilience(settings.resilience, host, onBreaker, settings.fleetGate, onPause);
    const { dispatcher, maxResponseBytes } = settings;
    let start: AttemptContext['start'];
    if (dispatcher === undefined) {
      const send = kySender(settings.fetch, maxResponseBytes);
      start = (url, request, attempt) => promptly(send(url, request, attempt));
    } else {
      const target = dispatchTarget(settings.baseUrl);
      const tracked = settings.trackWrites ? trackRequestWrites(dispatcher) : untrackedDispatcher(dispatcher);
      start = (_url, request, attempt) => sendWithDispatcher(tracked, target, request, attempt, maxResponseBytes);
    }
    const base = new URL(settings.baseUrl);
    const port = base.port === '' ? (base.protocol === 'https:' ? 443 : 80) : Number(base.port);
    this.#attempts = {
      settings,
      resilience: this.#resilience,
      observers: settings.observers,
      start,
      server: { address: base.hostname, port },
    };
  }

  /**
   * Runs an exchange to completion: a result, or the client's error. The
   * path of a call is a chain of `then`s, not `async` frames: a lookup
   * answered in tens of microseconds pays for each frame and promise.
   */
  send<T>(exchange: Exchange<T>): Promise<T> {
    const call: Call = {
      attempts: 0,
      retries: 0,
      rounds: 0,
      spent: 0,
      deadline: exchange.deadline ?? startDeadline(exchange.totalTimeoutMs ?? this.#settings.totalTimeoutMs),
      aborted: () =>
        exchange.fail({
          ...callerAbortFailure(exchange.signal?.reason, this.#settings.redact),
          attempts: call.attempts,
          // Only requests that surely never reached the server are retried, so
          // an abort during back-off or before the first attempt sent nothing.
          phase: 'connect',
        }),
      refuse: (waitMs: number, kind: WaitKind) => {
        this.#resilience.waitRefused();
        return exchange.fail(waitPastBudgetFailure(call.deadline, call.attempts, waitMs, kind));
      },
    };
    const observers = this.#observers;
    if (!observers.active) return this.#run(exchange, call, 1);
    const { name: client } = this.#settings;
    const { op } = exchange;
    if (observers.listens('call:start')) observers.emit({ type: 'call:start', client, op });
    if (!observers.listens('call:end')) return this.#run(exchange, call, 1);
    return this.#run(exchange, call, 1).then(
      (result) => {
        observers.emit({ type: 'call:end', client, op, attempts: call.attempts });
        return result;
      },
      (error: unknown) => {
        const code = (error as RetryHint | undefined)?.code;
        observers.emit({
          type: 'call:end',
          client,
          op,
          attempts: call.attempts,
          ...(typeof code === 'string' ? { errorCode: code } : {}),
        });
        throw error;
      },
    );
  }

  /** Counters of this transport: requests, retries, breaker state, retry tokens, throttled time. */
  stats(): TransportStats {
    return this.#resilience.stats();
  }

  /** Attempt number `attempt` of the call and, when it fails, whatever {@link #next} decides. */
  #run<T>(exchange: Exchange<T>, call: Call, attempt: number): Promise<T> {
    return this.#attempt(exchange, attempt, call).then(
      (result) => {
        this.#resilience.succeeded(call.spent);
        this.#resilience.settle(call, true, false, exchange.subject);
        return result;
      },
      (error: unknown) => this.#next(exchange, call, error),
    );
  }

  /** The call ends with `error`: the breaker learns how (once per call, after its retries). */
  #end(exchange: Exchange<unknown>, call: Call, error: unknown): Promise<never> {
    this.#resilience.settle(call, false, exchange.signal?.aborted === true, exchange.subject);
    return Promise.reject(error);
  }

  /**
   * The one place that decides what follows a failed attempt: an extra round
   * of the exchange (its hook says so), a retry after back-off (the retry
   * policy, the budget, the deadline, the retry budget and breaker say so), or
   * the end of the call with this error.
   */
  #next<T>(exchange: Exchange<T>, call: Call, error: unknown): Promise<T> {
    if (error instanceof Refused) return this.#end(exchange, call, error.error);
    if (exchange.extraRound !== undefined && exchange.signal?.aborted !== true) {
      const round = exchange.extraRound(error, call.rounds);
      if (round instanceof Promise) {
        return round.then(
          (kind) => this.#afterRound(exchange, call, error, kind),
          (failure: unknown) => this.#end(exchange, call, failure),
        );
      }
      return this.#afterRound(exchange, call, error, round);
    }
    return this.#backOff(exchange, call, error);
  }

  #afterRound<T>(exchange: Exchange<T>, call: Call, error: unknown, kind: ExtraRound | undefined): Promise<T> {
    if (kind === undefined) return this.#backOff(exchange, call, error);
    call.rounds += 1;
    if (this.#observers.listens('retry')) {
      this.#observers.emit(retryEvent(this.#settings.name, exchange, call.attempts, error, 0, kind));
    }
    return this.#run(exchange, call, call.attempts + 1);
  }

  #backOff<T>(exchange: Exchange<T>, call: Call, error: unknown): Promise<T> {
    const { retry } = this.#settings;
    const { deadline } = call;
    // Once the budget is spent, nothing is retried.
    if (call.retries >= retry.retries || deadline?.expired || !exchange.isRetryable(error)) {
      return this.#end(exchange, call, error);
    }
    const delay = retryDelay(call.retries, (error as RetryHint).retryAfterMs, retry);
    // A back-off that ends past the budget leaves no time to try: the last error stands.
    if (delay === undefined || (deadline !== undefined && delay >= deadline.remaining())) {
      return this.#end(exchange, call, error);
    }
    // The retry budget and the circuit breaker get a say.
    const cost = this.#resilience.spendRetry(error, call);
    if (cost === undefined) return this.#end(exchange, call, error);
    call.spent = cost;
    call.retries += 1;
    if (this.#observers.listens('retry')) {
      this.#observers.emit(retryEvent(this.#settings.name, exchange, call.attempts, error, delay, 'backoff'));
    }
    return sleep(delay, exchange.signal, call.aborted).then(
      // The circuit may have opened during the wait: then the last failure stands.
      () =>
        this.#resilience.mayContinue(call)
          ? this.#run(exchange, call, call.attempts + 1)
          : this.#end(exchange, call, error),
      (aborted: unknown) => this.#end(exchange, call, aborted),
    );
  }

  /**
   * One attempt, gates first (a 429 pause or the rate limit, then the call's
   * budget and the circuit breaker): its interpreted result, or its error; a
   * gate's refusal comes wrapped in {@link Refused}. Never throws: it rejects.
   */
  #attempt<T>(exchange: Exchange<T>, attempt: number, call: Call): Promise<T> {
    const { signal } = exchange;
    if (signal?.aborted) return Promise.reject(new Refused(call.aborted()));
    const held = this.#resilience.pass(signal, call.aborted, call);
    if (held === undefined) return this.#enter(exchange, attempt, call);
    const observers = this.#observers;
    const watched = observers.listens('rate-gate');
    const { name: client } = this.#settings;
    if (watched) observers.emit({ type: 'rate-gate', client, op: exchange.op, state: 'paused' });
    const pausedAt = watched ? performance.now() : 0;
    return held.then(
      () => {
        if (watched) {
          const waitMs = performance.now() - pausedAt;
          observers.emit({ type: 'rate-gate', client, op: exchange.op, state: 'resumed', waitMs });
        }
        return this.#enter(exchange, attempt, call);
      },
      (error: Error) => Promise.reject(new Refused(error)),
    );
  }

  /** Past the rate gate: the call's budget and the circuit breaker, then the attempt itself. */
  #enter<T>(exchange: Exchange<T>, attempt: number, call: Call): Promise<T> {
    const { deadline } = call;
    if (deadline?.expired) {
      return Promise.reject(new Refused(exchange.fail(overBudgetFailure(deadline, call.attempts, 'connect'))));
    }
    const refused = this.#resilience.enter(call, exchange.operation ?? 'call', call.attempts);
    if (refused !== undefined) {
      if (this.#observers.listens('breaker:refused')) {
        this.#observers.emit({ type: 'breaker:refused', client: this.#settings.name, op: exchange.op });
      }
      return Promise.reject(new Refused(exchange.fail(refused)));
    }
    call.attempts = attempt;
    let received: Promise<IncomingResponse>;
    try {
      received = this.#receive(exchange, attempt, call);
    } catch (error) {
      return Promise.reject(error);
    }
    return received.then((response) => exchange.interpret(this.#resilience.answered(call, response)));
  }

  /** The request of an attempt, then its response with the whole body, under one time-out. */
  #receive(exchange: Exchange<unknown>, attempt: number, call: Call): Promise<IncomingResponse> {
    const { signal } = exchange;
    const { deadline } = call;
    const built = exchange.build(attempt);
    // Awaited only when pending, so fixed credentials add no tick to an attempt.
    if (!(built instanceof Promise)) return sendAttempt(this.#attempts, exchange, built, attempt, deadline, call);
    return untilAborted(built, signal, () =>
      exchange.fail({
        ...callerAbortFailure(signal?.reason, this.#settings.redact),
        cause: undefined,
        attempts: attempt - 1,
        phase: 'connect',
      }),
    ).then((request) => sendAttempt(this.#attempts, exchange, request, attempt, deadline, call));
  }
}
