/**
 * Default numbers of the resilience layer, in one place (as smithy's util-retry keeps them).
 * The retry budget's numbers are the AWS SDK v3 standard retry strategy's.
 */

/** Tokens in a full retry budget. */
export const INITIAL_RETRY_TOKENS = 500;
/** Tokens one retry costs. */
export const RETRY_COST = 5;
/** Tokens a retry after a time-out costs: a time-out held a connection for the whole `timeoutMs`. */
export const TIMEOUT_RETRY_COST = 10;
/** Tokens a call that succeeded without retrying gives back. */
export const NO_RETRY_INCREMENT = 1;

/** Share of failed calls within the window that opens the circuit (Resilience4j's default). */
export const DEFAULT_FAILURE_RATIO = 0.5;
/** Calls the window must hold before its ratio is read. */
export const DEFAULT_MINIMUM_CALLS = 20;
/** Length of the breaker's sliding window (Polly's default sampling duration). */
export const DEFAULT_WINDOW_MS = 30_000;
/** Distinct calls, all started after the latest success started, whose failure opens the circuit at once. */
export const DEFAULT_FAILURE_THRESHOLD = 10;
/**
 * First open time of both clients' breakers: short, so a burst of failures
 * costs about the burst (a breaker open for tens of seconds turns a service
 * that fails two seconds in ten into an outage). Fixed: it grows after failed
 * probes only when `maxCooldownMs` is set above it.
 */
export const DEFAULT_COOLDOWN_MS = 1_000;
/** Calls let through at once in half-open; a majority of them decides. */
export const DEFAULT_HALF_OPEN_PROBES = 3;

/** Longest whole-client pause a `Retry-After` on a 429 may impose. */
export const DEFAULT_MAX_PAUSE_MS = 60_000;
