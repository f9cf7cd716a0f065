/**
 * Text for any thrown value, without calling its own conversion: `String(x)`
 * throws for a null-prototype object or a throwing `toString`, which in an
 * error path would replace the real failure with a `TypeError`.
 */
export function describeThrown(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return String(value);
  return `a thrown ${typeof value} that is not an Error`;
}
