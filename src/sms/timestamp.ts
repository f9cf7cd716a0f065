/**
 * The `Timestamp` common parameter: UTC, `YYYY-MM-DDThh:mm:ssZ`, no
 * milliseconds (the signing protocol's ISO 8601 profile).
 *
 * @example
 * ```ts
 * rpcTimestamp(new Date('2024-05-01T08:09:10.123Z')) // "2024-05-01T08:09:10Z"
 * ```
 */
export function rpcTimestamp(now: Date = new Date()): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
