import type { AbortLike } from '../../util/abort-like.js';
import { parseRetryAfter } from '../http/retry-after.js';
import { type Admission, CircuitBreaker, type CircuitState, type Transition } from './circuit-breaker.js';
import type { FleetGate } from './fleet-gate.js';
import { RateGate } from './rate-gate.js';
import type { ResolvedResilience } from './resilience-options.js';
import { RetryBudget } from './retry-budget.js';
import type { WaitLimit } from './wait-limit.js';

/**
 * Counters of one client's transport, cheap to read and free of secrets.
 *
 * @example
 * ```ts
 * const { requests, retries, circuit, retryTokens } = client.stats()
 * metrics.gauge('hashscan.retry_tokens', retryTokens ?? 0)
 * ```
 */
export interface TransportStats {
  /** HTTP attempts sent (retries included). */
  readonly requests: number;
  /** Retries started (each is also counted in `requests`). */
  readonly retries: number;
  /** Retries the empty retry budget refused: those failures were reported at once. */
  readonly retriesDenied: number;
  /** Calls rejected at once because the circuit was open (`CIRCUIT_OPEN`). */
  readonly rejectedByCircuit: number;
  /** The worst state of the circuit breakers (`open`, then `half-open`, then `closed`), or `disabled`. */
  readonly circuit: CircuitState | 'disabled';
  /** Each circuit breaker's state, by operation and host (e.g. `scan h.example:443`); empty before the first call. */
  readonly circuits: Readonly<Record<string, CircuitState>>;
  /** Times a circuit opened. */
  readonly circuitOpened: number;
  /** Tokens left in the retry budget; `undefined` when the budget is off. */
  readonly retryTokens: number | undefined;
  /** Total time attempts waited for a `Retry-After` pause or the `rateLimit`, in ms. */
  readonly throttledMs: number;
  /** Attempts waiting right now for a `Retry-After` pause or the `rateLimit` (the fleet's holds: `fleet.holding`). */
  readonly waiting: number;
  /** When the `Retry-After` pause in force ends (ms since the epoch); `undefined` when none is. */
  readonly pausedUntil: number | undefined;
  /**
   * Calls ended at once (`TIMEOUT` with `retryAfterMs`, nothing sent) because
   * a wait before an attempt (pause, rate limit, the fleet's pause or quota)
   * could not end within their `totalTimeoutMs`.
   */
  readonly waitsRefused: number;
}

/** The transport failure of an attempt the open circuit refused. */
export interface CircuitOpenFailure {
  readonly code: 'CIRCUIT_OPEN';
  readonly message: string;
  readonly cause: undefined;
  readonly attempts: number;
  /** Nothing left: the request never reached the network. */
  readonly phase: 'connect';
}

/**
 * What a call keeps for the breaker across its attempts: the transport's
 * per-call object carries these fields, so admission costs no allocation.
 */
export interface BreakerTicket {
  /** The breaker that admitted the call, and as what; unset until the first attempt is admitted. */
  breaker?: CircuitBreaker | undefined;
  admission?: Admission | undefined;
  /** When the call was admitted (`performance.now()`). */
  startedAt?: number;
  /** Whether the last attempt failed in a way that counts against the service. */
  transient?: boolean;
}

/** The statuses a breaker counts as the service failing; any other answer shows it up. */
const FAILING_STATUSES: ReadonlySet<number> = new Set([500, 502, 503, 504]);

/** Told of every breaker transition, once, with the breaker's key. */
export type BreakerListener = (key: string, transition: Transition) => void;

/**
 * The retry budget, circuit breakers and rate gate of one client, seen from
 * the transport's loop: a gate before each call, the outcome of each attempt
 * and of each call, a say in each retry. The transport's loop decides and
 * schedules retries.
 */
export class Resilience {
  readonly #budget: RetryBudget | undefined;
  readonly #settings: ResolvedResilience;
  readonly #host: string;
  readonly #onBreaker: BreakerListener;
  /** One breaker per operation on this client's host. */
  readonly #breakers = new Map<string, CircuitBreaker>();
  readonly #gate: RateGate;
  /** Pause and quota shared with other replicas (`fleet` option), after this client's own gate. */
  readonly #fleet: FleetGate | undefined;
  /** Errors of attempts that timed out: a retry after one costs more. */
  readonly #timeouts = new WeakSet<object>();
  #requests = 0;
  #retries = 0;
  #retriesDenied = 0;
  #rejected = 0;
  #opened = 0;
  #waitsRefused = 0;

  constructor(
    settings: ResolvedResilience,
    host = '',
    onBreaker: BreakerListener = () => {},
    fleet?: FleetGate,
    onPause?: (pauseMs: number) => void,
  ) {
    this.#settings = settings;
    this.#host = host;
    this.#onBreaker = onBreaker;
    this.#fleet = fleet;
    this.#budget = settings.budget === undefined ? undefined : new RetryBudget(settings.budget);
    this.#gate = new RateGate(settings.rate, settings.maxPauseMs, onPause);
  }

  /**
   * Waits out a 429 pause or the rate limit, then the fleet's; `undefined`
   * (no promise) when nothing holds the attempt. A wait that cannot end
   * within the call's budget rejects at once with `limit.refuse()`.
   */
  pass(signal: AbortLike | undefined, onAbort: () => Error, limit?: WaitLimit): Promise<void> | undefined {
    const local = this.#gate.pass(signal, onAbort, limit);
    const fleet = this.#fleet;
    if (fleet === undefined) return local;
    if (local === undefined) return fleet.pass(signal, onAbort, limit);
    return local.then(() => fleet.pass(signal, onAbort, limit));
  }

  /** A call ended at once: its wait at a gate could not fit in its budget. */
  waitRefused(): void {
    this.#waitsRefused += 1;
  }

  /**
   * Admits a call's first attempt through the breaker of `operation`:
   * `undefined` when it may start, else the failure to report (nothing was
   * sent, so nothing is retried). Later attempts are retries: see {@link spendRetry}.
   */
  enter(ticket: BreakerTicket, operation: string, attempts: number): CircuitOpenFailure | undefined {
    if (this.#settings.breaker === undefined || ticket.admission !== undefined) return undefined;
    const breaker = this.#breaker(operation);
    const admission = breaker.admit();
    if (admission !== undefined) {
      ticket.breaker = breaker;
      ticket.admission = admission;
      ticket.startedAt = performance.now();
      return undefined;
    }
    this.#rejected += 1;
    return {
      code: 'CIRCUIT_OPEN',
      message: `the circuit is open after repeated failures of the service; the next probe may go in ${breaker.retryInMs()} ms`,
      cause: undefined,
      attempts,
      phase: 'connect',
    };
  }

  /** Counts a request handed to the network (not one that failed before, e.g. on its credentials). */
  sent(): void {
    this.#requests += 1;
  }

  /** Records an attempt that got a response; returns it unchanged. */
  answered<R extends { readonly status: number; readonly headers: { get(name: string): string | null } }>(
    ticket: BreakerTicket,
    response: R,
  ): R {
    const { status } = response;
    if (status === 429) {
      // Rate limiting says nothing about the service's health: the breaker does not count it.
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      if (retryAfterMs !== undefined && retryAfterMs > 0) {
        this.#gate.pause(retryAfterMs);
        this.#fleet?.pause(retryAfterMs);
      }
    }
    ticket.transient = FAILING_STATUSES.has(status);
    return response;
  }

  /**
   * Records an attempt that got no response (`TIMEOUT`, `NETWORK`, `ABORTED`,
   * `RESPONSE_TOO_LARGE`); returns the client's `error` unchanged. Only the
   * service's own time-outs and network failures count against it: not the
   * caller's abort, nor the call's budget running out.
   */
  failed<E>(ticket: BreakerTicket, code: string, error: E, cutByCaller: boolean): E {
    ticket.transient = !cutByCaller && (code === 'TIMEOUT' || code === 'NETWORK');
    if (code === 'TIMEOUT' && typeof error === 'object' && error !== null) this.#timeouts.add(error);
    return error;
  }

  /**
   * Pays for one retry after `error`: its cost in tokens (0 without a
   * budget), or `undefined` when the budget is empty or the circuit has
   * opened since the call was admitted, and the failure should be reported now.
   */
  spendRetry(error: unknown, ticket: BreakerTicket): number | undefined {
    if (!this.mayContinue(ticket)) return undefined;
    if (this.#budget === undefined) {
      this.#retries += 1;
      return 0;
    }
    const cost = this.#budget.acquire(typeof error === 'object' && error !== null && this.#timeouts.has(error));
    if (cost === undefined) this.#retriesDenied += 1;
    else this.#retries += 1;
    return cost;
  }

  /** Whether the call may make another attempt: not once its breaker opened since it was admitted. */
  mayContinue(ticket: BreakerTicket): boolean {
    const { breaker, admission } = ticket;
    return breaker === undefined || admission === undefined || breaker.mayRetry(admission);
  }

  /**
   * A call ended: `ok` (a result), else failed after its last attempt.
   * `subject` (a hash) makes repeated failures of one input count once per window.
   */
  settle(ticket: BreakerTicket, ok: boolean, cutByCaller: boolean, subject: string | undefined): void {
    const { breaker, admission } = ticket;
    if (breaker === undefined || admission === undefined) return;
    const outcome = ok ? 'success' : !cutByCaller && ticket.transient ? 'failure' : 'neutral';
    breaker.settle(admission, outcome, subject, ticket.startedAt ?? 0);
  }

  /** A call succeeded after spending `spent` tokens on its last retry (0: no retry). */
  succeeded(spent: number): void {
    this.#budget?.release(spent);
  }

  stats(): TransportStats {
    const circuits: Record<string, CircuitState> = {};
    let circuit: CircuitState | 'disabled' = this.#settings.breaker === undefined ? 'disabled' : 'closed';
    for (const [operation, breaker] of this.#breakers) {
      const state = breaker.state;
      circuits[`${operation} ${this.#host}`] = state;
      if (state === 'open' || (state === 'half-open' && circuit !== 'open')) circuit = state;
    }
    return {
      requests: this.#requests,
      retries: this.#retries,
      retriesDenied: this.#retriesDenied,
      rejectedByCircuit: this.#rejected,
      circuit,
      circuits,
      circuitOpened: this.#opened,
      retryTokens: this.#budget?.available,
      throttledMs: this.#gate.throttledMs,
      waiting: this.#gate.waiting,
      pausedUntil: this.#gate.paused ? Math.round(Date.now() + this.#gate.pauseLeftMs) : undefined,
      waitsRefused: this.#waitsRefused,
    };
  }

  #breaker(operation: string): CircuitBreaker {
    let breaker = this.#breakers.get(operation);
    if (breaker === undefined) {
      const key = `${operation} ${this.#host}`;
      breaker = new CircuitBreaker(this.#settings.breaker as NonNullable<ResolvedResilience['breaker']>, (change) => {
        if (change.state === 'open') this.#opened += 1;
        this.#onBreaker(key, change);
      });
      this.#breakers.set(operation, breaker);
    }
    return breaker;
  }
}
