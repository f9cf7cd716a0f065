import type { Observers } from '../../observe/observers.js';
import { sleep } from '../../util/sleep.js';
import { untilAborted } from '../../util/until-aborted.js';
import { dispatchSender, kySender, type Sender } from '../http/sending.js';
import type { Sending } from '../http/wire.js';
import { type BreakerTicket, Resilience, type TransportStats } from '../resilience/resilience.js';
import type { WaitKind, WaitLimit } from '../resilience/wait-limit.js';
import { Attempt, type AttemptContext } from './attempt.js';
import { gateListeners, retryEvent } from './call-events.js';
import { callerAbortFailure, type Deadline, overBudgetFailure, waitPastBudgetFailure } from './deadline.js';
import type { Exchange, ExtraRound, TransportSettings } from './exchange.js';
import { retryDelay } from './retry-options.js';

export type {
  Exchange,
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

/** What {@link Transport.send}'s loop does after a failed attempt, when the call goes on. */
const AGAIN = Symbol('again');

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
  readonly #sender: Sender;

  constructor(settings: TransportSettings) {
    this.#settings = settings;
    this.#observers = settings.observers;
    const base = new URL(settings.baseUrl);
    const { onBreaker, onPause } = gateListeners(settings.observers, settings.name);
    this.#resilience = new Resilience(settings.resilience, base.host, onBreaker, settings.fleetGate, onPause);
    const { dispatcher, maxResponseBytes } = settings;
    this.#sender =
      dispatcher === undefined
        ? kySender(settings.fetch, maxResponseBytes)
        : dispatchSender(dispatcher, settings.baseUrl, settings.trackWrites === true, maxResponseBytes);
    const port = base.port === '' ? (base.protocol === 'https:' ? 443 : 80) : Number(base.port);
    this.#attempts = {
      settings,
      resilience: this.#resilience,
      observers: settings.observers,
      server: { address: base.hostname, port },
    };
  }

  /**
   * Runs an exchange to completion: a result, or the client's error. Every
   * attempt, the first included, runs in this loop under the exchange's
   * deadline (its budget, worked out by the client) and one attempt counter;
   * after a failed one, {@link #decide} is the one place that says whether
   * the call goes on.
   */
  async send<T>(exchange: Exchange<T>): Promise<T> {
    const call: Call = {
      attempts: 0,
      retries: 0,
      rounds: 0,
      spent: 0,
      deadline: exchange.deadline,
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
    const { name: client } = this.#settings;
    const { op } = exchange;
    if (observers.active && observers.listens('call:start')) observers.emit({ type: 'call:start', client, op });
    for (let attempt = 1; ; attempt = call.attempts + 1) {
      let failure: unknown;
      try {
        const result = await this.#attempt(exchange, attempt, call);
        this.#resilience.succeeded(call.spent);
        this.#resilience.settle(call, true, false, exchange.subject);
        if (observers.active && observers.listens('call:end')) {
          observers.emit({ type: 'call:end', client, op, attempts: call.attempts });
        }
        return result;
      } catch (error) {
        failure = error;
      }
      const next = await this.#decide(exchange, call, failure);
      if (next === AGAIN) continue;
      // The call ends: the breaker learns how (once per call, after its retries).
      this.#resilience.settle(call, false, exchange.signal?.aborted === true, exchange.subject);
      if (observers.active && observers.listens('call:end')) {
        const code = (next as RetryHint | undefined)?.code;
        const errorCode = typeof code === 'string' ? { errorCode: code } : {};
        observers.emit({ type: 'call:end', client, op, attempts: call.attempts, ...errorCode });
      }
      throw next;
    }
  }

  /** Counters of this transport: requests, retries, breaker state, retry tokens, throttled time. */
  stats(): TransportStats {
    return this.#resilience.stats();
  }

  /**
   * What follows a failed attempt: {@link AGAIN} for an extra round of the
   * exchange (its hook says so) or a retry after back-off (the retry policy,
   * the budget, the deadline, the retry budget and breaker say so), else the
   * error the call ends with.
   */
  async #decide(exchange: Exchange<unknown>, call: Call, error: unknown): Promise<unknown> {
    if (error instanceof Refused) return error.error;
    if (exchange.extraRound !== undefined && exchange.signal?.aborted !== true) {
      let kind: ExtraRound | undefined;
      try {
        kind = await exchange.extraRound(error, call.rounds);
      } catch (failure) {
        return failure;
      }
      if (kind !== undefined) {
        call.rounds += 1;
        if (this.#observers.listens('retry')) {
          this.#observers.emit(retryEvent(this.#settings.name, exchange, call.attempts, error, 0, kind));
        }
        return AGAIN;
      }
    }
    const { retry } = this.#settings;
    const { deadline } = call;
    // Once the budget is spent, nothing is retried.
    if (call.retries >= retry.retries || deadline?.expired || !exchange.isRetryable(error)) return error;
    const delay = retryDelay(call.retries, (error as RetryHint).retryAfterMs, retry);
    // A back-off that ends past the budget leaves no time to try: the last error stands.
    if (delay === undefined || (deadline !== undefined && delay >= deadline.remaining())) return error;
    // The retry budget and the circuit breaker get a say.
    const cost = this.#resilience.spendRetry(error, call);
    if (cost === undefined) return error;
    call.spent = cost;
    call.retries += 1;
    if (this.#observers.listens('retry')) {
      this.#observers.emit(retryEvent(this.#settings.name, exchange, call.attempts, error, delay, 'backoff'));
    }
    try {
      await sleep(delay, exchange.signal, call.aborted);
    } catch (aborted) {
      return aborted;
    }
    // The circuit may have opened during the wait: then the last failure stands.
    return this.#resilience.mayContinue(call) ? AGAIN : error;
  }

  /**
   * One attempt, gates first (a 429 pause or the rate limit, then the call's
   * budget and the circuit breaker), then the request and its whole response
   * under one time-out: its interpreted result, or its error; a gate's
   * refusal comes wrapped in {@link Refused}.
   */
  async #attempt<T>(exchange: Exchange<T>, attempt: number, call: Call): Promise<T> {
    const { signal } = exchange;
    if (signal?.aborted) throw new Refused(call.aborted());
    const held = this.#resilience.pass(signal, call.aborted, call);
    if (held !== undefined) await this.#held(exchange, held);
    const { deadline } = call;
    if (deadline?.expired) throw new Refused(exchange.fail(overBudgetFailure(deadline, call.attempts, 'connect')));
    const refused = this.#resilience.enter(call, exchange.operation ?? 'call', call.attempts);
    if (refused !== undefined) {
      if (this.#observers.listens('breaker:refused')) {
        this.#observers.emit({ type: 'breaker:refused', client: this.#settings.name, op: exchange.op });
      }
      throw new Refused(exchange.fail(refused));
    }
    call.attempts = attempt;
    let request = exchange.build(attempt);
    // Awaited only when pending, so fixed credentials add no tick to an attempt.
    if (request instanceof Promise) {
      request = await untilAborted(request, signal, () =>
        exchange.fail({
          ...callerAbortFailure(signal?.reason, this.#settings.redact),
          cause: undefined,
          attempts: attempt - 1,
          phase: 'connect',
        }),
      );
    }
    const watched = new Attempt(this.#attempts, exchange, request, attempt, deadline, call);
    let sending: Sending;
    try {
      sending = this.#sender.send(watched.url, request, attempt);
    } catch (error) {
      return watched.failed(error);
    }
    const response = await watched.watch(sending);
    return exchange.interpret(this.#resilience.answered(call, response));
  }

  /** Waits out a hold of the rate gate (a `Retry-After` pause, the rate limit, the fleet's pause), reported. */
  async #held(exchange: Exchange<unknown>, held: Promise<void>): Promise<void> {
    const observers = this.#observers;
    const watched = observers.listens('rate-gate');
    const { name: client } = this.#settings;
    if (watched) observers.emit({ type: 'rate-gate', client, op: exchange.op, state: 'paused' });
    const pausedAt = watched ? performance.now() : 0;
    try {
      await held;
    } catch (error) {
      throw new Refused(error as Error);
    }
    if (watched) {
      const waitMs = performance.now() - pausedAt;
      observers.emit({ type: 'rate-gate', client, op: exchange.op, state: 'resumed', waitMs });
    }
  }
}
