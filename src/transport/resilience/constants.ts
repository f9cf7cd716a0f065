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

/** Consecutive transient failures that open the circuit. */
export const DEFAULT_FAILURE_THRESHOLD = 5;

/** Longest whole-client pause a `Retry-After` on a 429 may impose. */
export const DEFAULT_MAX_PAUSE_MS = 60_000;
