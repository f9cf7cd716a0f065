import { wholeNumber } from '../../config/numbers.js';
import { ConfigurationError } from '../../errors/configuration-error.js';
import type { BreakerSettings } from './circuit-breaker.js';
import {
  DEFAULT_COOLDOWN_MS,
  DEFAULT_FAILURE_RATIO,
  DEFAULT_FAILURE_THRESHOLD,
  DEFAULT_HALF_OPEN_PROBES,
  DEFAULT_MAX_PAUSE_MS,
  DEFAULT_MINIMUM_CALLS,
  DEFAULT_WINDOW_MS,
  INITIAL_RETRY_TOKENS,
} from './constants.js';

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
 * The circuit breaker, one per operation and host. It reads whole calls,
 * after their retries: a call fails for it only on a time-out, a network or
 * TLS failure, or HTTP 500/502/503/504. A 429 goes to the rate gate; other
 * answers (a 404, a body that fails the checks) and caller aborts count for
 * nothing. A hash that keeps failing counts once per window.
 *
 * It opens when `failureRatio` of at least `minimumCalls` calls within
 * `windowMs` failed, or at once when `failureThreshold` distinct calls fail
 * one after another with no success among them. Open, it refuses calls at
 * once for `cooldownMs` (less up to a fifth, at random); then
 * `halfOpenProbes` calls go through (probation), and a majority of them
 * closes or reopens it. The open time is fixed (as Resilience4j's wait in
 * the open state): a service that fails in bursts costs about the bursts.
 * Setting `maxCooldownMs` above `cooldownMs` opts in to exponential
 * back-off: the open time doubles after each failed half-open, up to it, and
 * starts over once probes succeed.
 *
 * @example
 * ```ts
 * { circuitBreaker: { failureRatio: 0.8, minimumCalls: 50 } } // only a deep brown-out opens it
 * { circuitBreaker: { maxCooldownMs: 60_000 } }                 // 1 s, 2 s, 4 s … up to 60 s while probes fail
 * { circuitBreaker: false }                                    // always call the service
 * ```
 */
export interface CircuitBreakerOptions {
  /** Share of failed calls in the window that opens the circuit, above 0 and at most 1. @defaultValue 0.5 */
  readonly failureRatio?: number | undefined;
  /** Calls the window must hold before `failureRatio` is read. @defaultValue 20 */
  readonly minimumCalls?: number | undefined;
  /** Length of the sliding window, in ms. @defaultValue 30000 */
  readonly windowMs?: number | undefined;
  /** Distinct calls, all started after the latest successful call started, whose failure opens the circuit at once. @defaultValue 10 */
  readonly failureThreshold?: number | undefined;
  /** Open time before probes go through, in ms (less up to a fifth, at random). @defaultValue 1000 */
  readonly cooldownMs?: number | undefined;
  /**
   * Longest open time, in ms: above `cooldownMs`, the open time doubles after
   * each failed half-open up to it (exponential back-off, opt-in).
   * @defaultValue `cooldownMs` (a fixed open time)
   */
  readonly maxCooldownMs?: number | undefined;
  /** Calls let through at once when half-open. @defaultValue 3 */
  readonly halfOpenProbes?: number | undefined;
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
  readonly breaker: BreakerSettings | undefined;
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
   * @defaultValue `{ failureRatio: 0.5, minimumCalls: 20, windowMs: 30000, failureThreshold: 10, cooldownMs: 1000, maxCooldownMs: 1000, halfOpenProbes: 3 }`
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

/** Checks the options and fills in defaults; a client may set its own `defaultCooldownMs`. */
export function resolveResilience(
  options: ResilienceOptions,
  defaultCooldownMs: number = DEFAULT_COOLDOWN_MS,
): ResolvedResilience {
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
    breaker: breaker === false ? undefined : resolveBreaker(breaker ?? {}, defaultCooldownMs),
    rate: limit,
    maxPauseMs: wholeNumber(rate.maxPauseMs, 'rateLimit.maxPauseMs', DEFAULT_MAX_PAUSE_MS, { min: 0 }),
  };
}

function resolveBreaker(options: CircuitBreakerOptions, defaultCooldownMs: number): BreakerSettings {
  const ratio = options.failureRatio ?? DEFAULT_FAILURE_RATIO;
  if (typeof ratio !== 'number' || !(ratio > 0 && ratio <= 1)) {
    throw new ConfigurationError('circuitBreaker.failureRatio', 'must be a number above 0 and at most 1');
  }
  const cooldownMs = wholeNumber(options.cooldownMs, 'circuitBreaker.cooldownMs', defaultCooldownMs, { min: 1 });
  const maxCooldownMs = wholeNumber(options.maxCooldownMs, 'circuitBreaker.maxCooldownMs', cooldownMs, {
    min: cooldownMs,
    max: 2_147_483_647,
  });
  return {
    failureRatio: ratio,
    minimumCalls: wholeNumber(options.minimumCalls, 'circuitBreaker.minimumCalls', DEFAULT_MINIMUM_CALLS, { min: 1 }),
    windowMs: wholeNumber(options.windowMs, 'circuitBreaker.windowMs', DEFAULT_WINDOW_MS, { min: 1 }),
    failureThreshold: wholeNumber(
      options.failureThreshold,
      'circuitBreaker.failureThreshold',
      DEFAULT_FAILURE_THRESHOLD,
      { min: 1 },
    ),
    cooldownMs,
    maxCooldownMs,
    halfOpenProbes: wholeNumber(options.halfOpenProbes, 'circuitBreaker.halfOpenProbes', DEFAULT_HALF_OPEN_PROBES, {
      min: 1,
      max: 1000,
    }),
  };
}
