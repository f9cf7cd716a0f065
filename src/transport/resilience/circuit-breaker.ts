/** Where a circuit breaker stands: `closed` (calls go through), `open` (calls rejected at once), `half-open` (one probe allowed). */
export type CircuitState = 'closed' | 'open' | 'half-open';

/** What the breaker says about starting an attempt now. */
export type Admission = { readonly admitted: true } | { readonly admitted: false; readonly retryInMs: number };

const ADMITTED: Admission = Object.freeze({ admitted: true });

/**
 * Closed → open after `failureThreshold` consecutive transient failures;
 * open → half-open once `cooldownMs` has passed, letting exactly one probe
 * through; the probe's success closes it, its failure opens it again for
 * another cool-down. Any healthy answer resets the count of failures.
 *
 * The clock is `performance.now()`, read on each call so fake timers apply.
 */
export class CircuitBreaker {
  readonly #failureThreshold: number;
  readonly #cooldownMs: number;
  #state: CircuitState = 'closed';
  #failures = 0;
  #openedAt = 0;
  #probing = false;
  #probeStartedAt = 0;

  constructor(failureThreshold: number, cooldownMs: number) {
    this.#failureThreshold = failureThreshold;
    this.#cooldownMs = cooldownMs;
  }

  /** The state now (an open circuit whose cool-down is over reads `half-open`). */
  get state(): CircuitState {
    if (this.#state === 'open' && performance.now() - this.#openedAt >= this.#cooldownMs) return 'half-open';
    return this.#state;
  }

  /**
   * Whether an attempt may start; in half-open, only the one probe may. A
   * probe that never reports (its request could not even be built) holds
   * the slot for one cool-down at most.
   */
  admit(): Admission {
    const state = this.state;
    if (state === 'closed') return ADMITTED;
    const now = performance.now();
    if (state === 'half-open' && (!this.#probing || now - this.#probeStartedAt >= this.#cooldownMs)) {
      this.#state = 'half-open';
      this.#probing = true;
      this.#probeStartedAt = now;
      return ADMITTED;
    }
    const retryInMs = state === 'open' ? Math.max(0, Math.ceil(this.#openedAt + this.#cooldownMs - now)) : 0;
    return { admitted: false, retryInMs };
  }

  /** The service answered in a way that shows it is up. */
  onSuccess(): void {
    this.#failures = 0;
    this.#probing = false;
    this.#state = 'closed';
  }

  /** A transient failure: time-out, network failure, 408 or 5xx. */
  onFailure(): void {
    this.#failures += 1;
    const probeFailed = this.#state === 'half-open';
    this.#probing = false;
    if (probeFailed || (this.#state === 'closed' && this.#failures >= this.#failureThreshold)) {
      this.#state = 'open';
      this.#openedAt = performance.now();
    }
  }

  /** An attempt that ended without evidence either way (the caller aborted): frees the probe slot. */
  onNeutral(): void {
    this.#probing = false;
  }
}
