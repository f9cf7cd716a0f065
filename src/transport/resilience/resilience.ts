import type { AbortLike } from '../../util/abort-like.js';
import { parseRetryAfter } from '../http/retry-after.js';
import { type Admission, CircuitBreaker, type CircuitState } from './circuit-breaker.js';
import { RateGate } from './rate-gate.js';
import type { ResolvedResilience } from './resilience-options.js';
import { RetryBudget } from './retry-budget.js';

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
  /** The circuit breaker's state, or `disabled`. */
  readonly circuit: CircuitState | 'disabled';
  /** Tokens left in the retry budget; `undefined` when the budget is off. */
  readonly retryTokens: number | undefined;
  /** Total time attempts waited for a `Retry-After` pause or the `rateLimit`, in ms. */
  readonly throttledMs: number;
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

const ADMITTED: Admission = Object.freeze({ admitted: true });

/**
 * The retry budget, circuit breaker and rate gate of one client, seen from
 * the transport's retry loop: a gate before each attempt, the outcome of each
 * attempt, a say in each retry. The transport's loop decides and schedules retries.
 */
export class Resilience {
  readonly #budget: RetryBudget | undefined;
  readonly #breaker: CircuitBreaker | undefined;
  readonly #gate: RateGate;
  /** Errors of attempts that timed out: a retry after one costs more. */
  readonly #timeouts = new WeakSet<object>();
  #requests = 0;
  #retries = 0;
  #retriesDenied = 0;
  #rejected = 0;

  constructor(settings: ResolvedResilience) {
    this.#budget = settings.budget === undefined ? undefined : new RetryBudget(settings.budget);
    this.#breaker =
      settings.breaker === undefined
        ? undefined
        : new CircuitBreaker(settings.breaker.failureThreshold, settings.breaker.cooldownMs);
    this.#gate = new RateGate(settings.rate, settings.maxPauseMs);
  }

  /** Waits out a 429 pause or the rate limit; `undefined` (no promise) when nothing holds the attempt. */
  pass(signal: AbortLike | undefined, onAbort: () => Error): Promise<void> | undefined {
    return this.#gate.pass(signal, onAbort);
  }

  /** Whether the circuit lets an attempt start now; counts the attempt when it does. */
  admit(): Admission {
    const admission = this.#breaker?.admit() ?? ADMITTED;
    if (admission.admitted) this.#requests += 1;
    else this.#rejected += 1;
    return admission;
  }

  /**
   * {@link admit} for the transport: `undefined` when the attempt may start,
   * else the failure to report (nothing was sent, so nothing is retried).
   */
  enter(attempts: number): CircuitOpenFailure | undefined {
    const admission = this.admit();
    if (admission.admitted) return undefined;
    return {
      code: 'CIRCUIT_OPEN',
      message: `the circuit is open after repeated failures of the service; the next probe may go in ${admission.retryInMs} ms`,
      cause: undefined,
      attempts,
      phase: 'connect',
    };
  }

  /** Records an attempt that got a response; returns it unchanged. */
  answered<R extends { readonly status: number; readonly headers: { get(name: string): string | null } }>(
    response: R,
  ): R {
    const { status } = response;
    if (status === 429) {
      // Rate limiting says nothing about the service's health: the breaker does not count it.
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      if (retryAfterMs !== undefined && retryAfterMs > 0) this.#gate.pause(retryAfterMs);
    } else if (status === 408 || status >= 500) {
      this.#breaker?.onFailure();
    } else {
      this.#breaker?.onSuccess();
    }
    return response;
  }

  /** Records an attempt that got no response (`TIMEOUT`, `NETWORK`, `ABORTED`); returns the client's `error` unchanged. */
  failed<E>(code: string, error: E): E {
    if (code === 'TIMEOUT' || code === 'NETWORK') this.#breaker?.onFailure();
    else this.#breaker?.onNeutral();
    if (code === 'TIMEOUT' && typeof error === 'object' && error !== null) this.#timeouts.add(error);
    return error;
  }

  /**
   * Pays for one retry after `error`: its cost in tokens (0 without a
   * budget), or `undefined` when the budget is empty or the circuit has
   * opened, and the failure should be reported now.
   */
  spendRetry(error: unknown): number | undefined {
    if (this.#breaker?.state === 'open') return undefined;
    if (this.#budget === undefined) {
      this.#retries += 1;
      return 0;
    }
    const cost = this.#budget.acquire(typeof error === 'object' && error !== null && this.#timeouts.has(error));
    if (cost === undefined) this.#retriesDenied += 1;
    else this.#retries += 1;
    return cost;
  }

  /** A call succeeded after spending `spent` tokens on its last retry (0: no retry). */
  succeeded(spent: number): void {
    this.#budget?.release(spent);
  }

  stats(): TransportStats {
    return {
      requests: this.#requests,
      retries: this.#retries,
      retriesDenied: this.#retriesDenied,
      rejectedByCircuit: this.#rejected,
      circuit: this.#breaker?.state ?? 'disabled',
      retryTokens: this.#budget?.available,
      throttledMs: this.#gate.throttledMs,
    };
  }
}
