/** HTTP 408, 429 and 5xx: statuses that may change on a later try. Others will not. */
export function isTransientStatus(status: number | undefined): boolean {
  return status === 408 || status === 429 || (status !== undefined && status >= 500);
}

/**
 * The longest delay a `Retry-After` header is read as: one day. A server may
 * ask for any delay (`Retry-After: 99999999999999999999` or a date in the
 * year 9999); anything longer is reported as this many milliseconds, so
 * `retryAfterMs` is always a finite, safe integer that `setTimeout` and date
 * arithmetic handle. Such a delay is far past any retry budget anyway.
 */
export const MAX_RETRY_AFTER_MS = 86_400_000;

/**
 * Parses a `Retry-After` header (delay-seconds or an HTTP date) into
 * milliseconds from `now`, at most {@link MAX_RETRY_AFTER_MS}. Returns
 * `undefined` for a missing or unreadable value.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(MAX_RETRY_AFTER_MS, Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date) || !/[a-z]/i.test(trimmed)) return undefined;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, date - now));
}
