/**
 * A duration written on a command line: a whole number and a unit, `s`,
 * `m`, `h` or `d` (`90s`, `15m`, `12h`, `7d`), or `ms`; bare digits are
 * milliseconds (what `--max-age` took before units).
 * @module
 */
import { ConfigurationError } from '../errors/configuration-error.js';

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Inclusive bounds of a duration, in ms. */
export interface DurationRange {
  readonly minMs: number;
  readonly maxMs: number;
}

/** A duration's text within `range`, in ms; `undefined` stays `undefined`. */
export function durationText(value: string | undefined, option: string, range: DurationRange): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d{1,15})(ms|s|m|h|d)?$/.exec(value);
  const ms = match === null ? Number.NaN : Number(match[1]) * (UNIT_MS[match[2] ?? 'ms'] as number);
  if (!Number.isSafeInteger(ms) || ms < range.minMs || ms > range.maxMs) {
    throw new ConfigurationError(
      option,
      `must be a duration from ${durationLabel(range.minMs)} to ${durationLabel(range.maxMs)} (as 90s, 15m, 12h or 7d), got ${JSON.stringify(value)}`,
    );
  }
  return ms;
}

/** `ms` in the largest unit that holds it whole: `7d`, `90s`, `1500ms`. */
export function durationLabel(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const size = UNIT_MS[unit] as number;
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
