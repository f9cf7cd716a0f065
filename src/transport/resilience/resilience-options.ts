import { wholeNumber } from '../../config/numbers.js';
import { ConfigurationError } from '../../errors/configuration-error.js';
import { DEFAULT_FAILURE_THRESHOLD, DEFAULT_MAX_PAUSE_MS, INITIAL_RETRY_TOKENS } from './constants.js';

/**
 * The client-wide retry budget: a token bucket every retry draws from
 * (5 tokens, 10 after a time-out) and every success refills (1 token, or the
 * cost of its last retry). When it is empty, failures are reported at once.
 *
 * @example
 * ```ts
 * { retryBudget: { capacity: 100 } } // a smaller budget: fewer retries in an outage
 * { retryBudget: false }             // every failure may use all its retries
 * ```
 */
export interface RetryBudgetOptions {
  /** Tokens in a full budget (100 retries at 5 tokens each). @defaultValue 500 */
  readonly capacity?: number | undefined;
}

/**
 * The circuit breaker: after `failureThreshold` consecutive transient
 * failures (time-outs, network failures, 408, 5xx) the client stops calling
 * for `cooldownMs` and rejects at once, then lets one probe through.
 *
 * @example
 * ```ts
 * { circuitBreaker: { failureThreshold: 10, cooldownMs: 5_000 } }
 * { circuitBreaker: false } // always call the service
 * ```
 */
export interface CircuitBreakerOptions {
  /** Consecutive transient failures that open the circuit. @defaultValue 5 */
  readonly failureThreshold?: number | undefined;
  /** How long an open circuit rejects calls before one probe, in ms. @defaultValue 30000 (hash lookups), 10000 (SMS) */
  readonly cooldownMs?: number | undefined;
}

/**
 * Rate limits. A `429` answer with `Retry-After` always pauses the whole
 * client (up to `maxPauseMs`); `requestsPerSecond` adds a limit of your own.
 *
 * @example
 * ```ts
 * { rateLimit: { requestsPerSecond: 50 } }   // the quota you were given
 * { rateLimit: { maxPauseMs: 0 } }           // a 429 pauses nobody but its own retry
 * ```
 */
export interface RateLimitOptions {
  /** Most attempts started per second, over all callers of this client. @defaultValue no limit */
  readonly requestsPerSecond?: number | undefined;
  /** Attempts that may start at once before the limit spaces them out. @defaultValue `requestsPerSecond`, rounded up */
  readonly burst?: number | undefined;
  /** Longest whole-client pause one `Retry-After` may impose, in ms; `0` turns the pause off. @defaultValue 60000 */
  readonly maxPauseMs?: number | undefined;
}

/** Resilience settings with every default filled in. */
export interface ResolvedResilience {
  /** Capacity of the retry budget; `undefined` when it is off. */
  readonly budget: number | undefined;
  readonly breaker: { readonly failureThreshold: number; readonly cooldownMs: number } | undefined;
  readonly rate: { readonly requestsPerSecond: number; readonly burst: number } | undefined;
  readonly maxPauseMs: number;
}

/** How a client behaves when the service struggles: options both clients share. */
export interface ResilienceOptions {
  /**
   * Client-wide retry budget; `false` lets every failure use all its retries.
   * @defaultValue `{ capacity: 500 }`
   */
  readonly retryBudget?: RetryBudgetOptions | false | undefined;
  /**
   * Circuit breaker; `false` turns it off. An open circuit rejects at once:
   * `CIRCUIT_OPEN` for `HashScanClient` (which `decide()` sends to review),
   * `CIRCUIT_OPEN` with `outcome: 'not_sent'` for `SmsClient`.
   * @defaultValue `{ failureThreshold: 5, cooldownMs: 30000 }` (hash lookups), `{ failureThreshold: 5, cooldownMs: 10000 }` (SMS)
   */
  readonly circuitBreaker?: CircuitBreakerOptions | false | undefined;
  /**
   * A `429` with `Retry-After` pauses the whole client; `requestsPerSecond` adds your own limit.
   * @defaultValue `{ maxPauseMs: 60000 }` (no client-side limit)
   */
  readonly rateLimit?: RateLimitOptions | undefined;
}

function objectOrUndefined<T>(value: T | false | undefined, option: string): T | false | undefined {
  if (value === undefined || value === false || (typeof value === 'object' && value !== null)) return value;
  throw new ConfigurationError(option, 'must be an object or false');
}

/** Checks the options and fills in defaults; `defaultCooldownMs` differs per client. */
export function resolveResilience(options: ResilienceOptions, defaultCooldownMs: number): ResolvedResilience {
  const budget = objectOrUndefined(options.retryBudget, 'retryBudget');
  const breaker = objectOrUndefined(options.circuitBreaker, 'circuitBreaker');
  const rate = objectOrUndefined(options.rateLimit, 'rateLimit') || {};
  let limit: ResolvedResilience['rate'];
  if (rate.requestsPerSecond !== undefined) {
    const requestsPerSecond = rate.requestsPerSecond;
    if (typeof requestsPerSecond !== 'number' || !(requestsPerSecond > 0) || requestsPerSecond > 1_000_000) {
      throw new ConfigurationError('rateLimit.requestsPerSecond', 'must be a number above 0 and at most 1000000');
    }
    limit = {
      requestsPerSecond,
      burst: wholeNumber(rate.burst, 'rateLimit.burst', Math.ceil(requestsPerSecond), { min: 1 }),
    };
  } else if (rate.burst !== undefined) {
    throw new ConfigurationError('rateLimit.burst', 'needs rateLimit.requestsPerSecond');
  }
  return {
    budget:
      budget === false
        ? undefined
        : wholeNumber(budget?.capacity, 'retryBudget.capacity', INITIAL_RETRY_TOKENS, { min: 0 }),
    breaker:
      breaker === false
        ? undefined
        : {
            failureThreshold: wholeNumber(
              breaker?.failureThreshold,
              'circuitBreaker.failureThreshold',
              DEFAULT_FAILURE_THRESHOLD,
              { min: 1 },
            ),
            cooldownMs: wholeNumber(breaker?.cooldownMs, 'circuitBreaker.cooldownMs', defaultCooldownMs, { min: 1 }),
          },
    rate: limit,
    maxPauseMs: wholeNumber(rate.maxPauseMs, 'rateLimit.maxPauseMs', DEFAULT_MAX_PAUSE_MS, { min: 0 }),
  };
}
