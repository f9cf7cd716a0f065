import { INITIAL_RETRY_TOKENS, NO_RETRY_INCREMENT, RETRY_COST, TIMEOUT_RETRY_COST } from './constants.js';

/**
 * A client-wide token bucket every retry draws from, with the numbers of the
 * AWS SDK v3 standard retry strategy (see `constants.ts`). While the service answers,
 * successes keep it full; during an outage it drains after
 * `capacity / cost` retries, and failures are then reported at once instead
 * of retried, so the load a fleet puts on a struggling service tends to one
 * request per call instead of `1 + retries`.
 */
export class RetryBudget {
  readonly #capacity: number;
  #tokens: number;

  constructor(capacity: number = INITIAL_RETRY_TOKENS) {
    this.#capacity = capacity;
    this.#tokens = capacity;
  }

  /** Tokens left. */
  get available(): number {
    return this.#tokens;
  }

  /**
   * Takes the cost of one retry, or returns `undefined` when the budget
   * cannot pay for it (then the failure is reported without retrying).
   */
  acquire(afterTimeout: boolean): number | undefined {
    const cost = afterTimeout ? TIMEOUT_RETRY_COST : RETRY_COST;
    if (this.#tokens < cost) return undefined;
    this.#tokens -= cost;
    return cost;
  }

  /**
   * A call succeeded: a call that needed retries gets its last retry's cost
   * back, one that did not adds {@link NO_RETRY_INCREMENT}, never above capacity.
   */
  release(spent: number): void {
    this.#tokens = Math.min(this.#capacity, this.#tokens + (spent > 0 ? spent : NO_RETRY_INCREMENT));
  }
}
