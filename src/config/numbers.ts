/**
 * The option validators both clients, the cache and the command line use:
 * every one takes `(value, option, …)` in that order and throws a
 * {@link ConfigurationError} naming the option.
 * @module
 */
import { ConfigurationError } from '../errors/configuration-error.js';

/** The longest delay `setTimeout` can wait, in ms. */
const MAX_TIMER_MS = 2_147_483_647;

/** Inclusive bounds of a whole number; `max` defaults to {@link MAX_TIMER_MS}. */
export interface WholeRange {
  readonly min: number;
  readonly max?: number;
}

/** A whole number within `range`, else `fallback` when absent. */
export function wholeNumber(value: unknown, option: string, fallback: number, range: WholeRange): number {
  if (value === undefined) return fallback;
  const max = range.max ?? MAX_TIMER_MS;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < range.min || value > max) {
    throw new ConfigurationError(option, `must be a whole number from ${range.min} to ${max}`);
  }
  return value;
}

/**
 * A whole number written as decimal digits (a command-line flag, an
 * environment variable) within `range`; `undefined` stays `undefined`.
 */
export function wholeNumberText(value: string | undefined, option: string, range: WholeRange): number | undefined {
  if (value === undefined) return undefined;
  const max = range.max ?? MAX_TIMER_MS;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < range.min || n > max) {
    throw new ConfigurationError(
      option,
      `must be a whole number from ${range.min} to ${max}, got ${JSON.stringify(value)}`,
    );
  }
  return n;
}

/** A positive whole number of milliseconds within what `setTimeout` can wait. */
export function positiveMs(value: number | undefined, option: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_TIMER_MS) {
    throw new ConfigurationError(option, `must be a whole number of milliseconds between 1 and ${MAX_TIMER_MS}`);
  }
  return value;
}

/** An optional budget in ms: absent stays absent, anything else must be a valid time-out. */
export function optionalMs(value: number | undefined, option: string): number | undefined {
  return value === undefined ? undefined : positiveMs(value, option, 0);
}
