/**
 * Parses a `Retry-After` header (delay-seconds or an HTTP date) into
 * milliseconds from `now`. Returns `undefined` for a missing or unreadable value.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date) || !/[a-z]/i.test(trimmed)) return undefined;
  return Math.max(0, date - now);
}
