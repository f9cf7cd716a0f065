import { wholeNumber } from '../config/numbers.js';
import { ConfigurationError } from '../errors/configuration-error.js';

/*
 * The `limits` option of `SmsClient` (and its deprecated alias
 * `fleet.limits`), and its check.
 */

/**
 * Sending limits per phone number, in the shape of the vendor's own
 * `isv.BUSINESS_LIMIT_CONTROL` rules. Each is counted in a window that starts
 * with the first message to that number.
 *
 * @example
 * ```ts
 * { perMinute: 1, perHour: 5, perDay: 10 }
 * ```
 */
export interface RecipientLimits {
  /** Messages per phone number per minute. @defaultValue no limit */
  readonly perMinute?: number | undefined;
  /** Messages per phone number per hour. @defaultValue no limit */
  readonly perHour?: number | undefined;
  /** Messages per phone number per day (24 hours). @defaultValue no limit */
  readonly perDay?: number | undefined;
}

/**
 * Sending limits per caller: the one asking for the send (an IP address, a
 * user or a session id), passed per send as `send(request, { caller })`.
 * Counted like the per-number limits, in windows that start with the
 * caller's first message; a send without `caller` is not counted here.
 *
 * @example
 * ```ts
 * { perMinute: 3, perHour: 10, perDay: 20 }
 * ```
 */
export interface CallerLimits {
  /** Messages per caller per minute. @defaultValue no limit */
  readonly perMinute?: number | undefined;
  /** Messages per caller per hour. @defaultValue no limit */
  readonly perHour?: number | undefined;
  /** Messages per caller per day (24 hours). @defaultValue no limit */
  readonly perDay?: number | undefined;
}

/**
 * What a send does while the shared count cannot be read (Redis down, slow,
 * or holding a value out of range):
 *
 * - `'local'`: this replica counts on its own (the same limits, per replica),
 *   and sends at most one message per phone number that Redis has not yet
 *   recorded; the count is written to Redis once it answers.
 * - `'refuse'`: the send is refused with `LIMITS_UNAVAILABLE`
 *   (`outcome: 'not_sent'`, `retryAfterMs`): nothing is sent unless the
 *   shared count says it may go.
 */
export type LimitStoreFailure = 'local' | 'refuse';

/**
 * The sending limits of `SmsClient`: checked before any request, a send over
 * a limit is refused with `SEND_LIMITED` (`outcome: 'not_sent'`). Without
 * `fleet` they are counted in this process; with `fleet` they are shared by
 * every replica through Redis.
 *
 * @example
 * ```ts
 * new SmsClient({ limits: { perRecipient: { perMinute: 1, perHour: 5 }, dailyBudget: 50_000 } })
 * ```
 */
export interface SmsLimitsOptions {
  /**
   * Per phone number, counted on its canonical (E.164) form: every spelling of one phone counts as one.
   * The guard against OTP pumping. @defaultValue none
   */
  readonly perRecipient?: RecipientLimits | undefined;
  /**
   * Per caller (`send(request, { caller })`): the guard against one client of your endpoint spreading its sends
   * over many numbers. Each message of a send counts one. @defaultValue none
   */
  readonly perCaller?: CallerLimits | undefined;
  /**
   * Messages that may be sent per UTC day (the whole fleet's with `fleet`),
   * counted one per phone number of each send (a text long enough to be
   * billed as several messages still counts one: set the budget with that in mind).
   * @defaultValue none
   */
  readonly dailyBudget?: number | undefined;
  /**
   * With `fleet`: what a send does while the shared count cannot be read.
   * See {@link LimitStoreFailure}.
   * @defaultValue `'local'`
   */
  readonly onStoreFailure?: LimitStoreFailure | undefined;
}

/** Which limit refused a send. */
export type SendLimit = 'perMinute' | 'perHour' | 'perDay' | 'dailyBudget';

/** What a limit counts: one phone number's messages, one caller's, or the day's. */
export type LimitScope = 'perRecipient' | 'perCaller' | 'budget';

/** One checked limit. */
export interface LimitRule {
  readonly scope: LimitScope;
  readonly limit: SendLimit;
  readonly max: number;
  /** The window of a per-recipient limit, or how long a day's budget key lives, in ms. */
  readonly windowMs: number;
}

/** Checked limits. */
export interface ResolvedLimits {
  readonly perRecipient: readonly LimitRule[];
  readonly perCaller: readonly LimitRule[];
  readonly budget: LimitRule | undefined;
  readonly onStoreFailure: LimitStoreFailure;
  /** The option's name in messages: `limits` or `fleet.limits`. */
  readonly option: string;
}

const WINDOWS: ReadonlyArray<readonly [keyof RecipientLimits & keyof CallerLimits & SendLimit, number]> = [
  ['perMinute', 60_000],
  ['perHour', 3_600_000],
  ['perDay', 86_400_000],
];
/** A day's budget key outlives its UTC day, so a clock slightly off still finds its day's count. */
const BUDGET_KEY_MS = 2 * 86_400_000;

/** `limits` or the deprecated `fleet.limits` (not both), checked; `undefined` when none is set. */
export function resolveLimits(
  limits: SmsLimitsOptions | undefined,
  fleetLimits: SmsLimitsOptions | undefined,
): ResolvedLimits | undefined {
  if (limits !== undefined && fleetLimits !== undefined) {
    throw new ConfigurationError('fleet.limits', 'is the deprecated spelling of limits: set one of them, not both');
  }
  const options = limits ?? fleetLimits;
  if (options === undefined) return undefined;
  const option = limits !== undefined ? 'limits' : 'fleet.limits';
  if (typeof options !== 'object' || options === null) throw new ConfigurationError(option, 'must be an object');
  const perRecipient = windowRules(options.perRecipient, 'perRecipient', option);
  const perCaller = windowRules(options.perCaller, 'perCaller', option);
  const budgetMax = countLimit(options.dailyBudget, `${option}.dailyBudget`);
  const onStoreFailure = options.onStoreFailure ?? 'local';
  if (onStoreFailure !== 'local' && onStoreFailure !== 'refuse') {
    throw new ConfigurationError(`${option}.onStoreFailure`, "must be 'local' or 'refuse'");
  }
  if (perRecipient.length === 0 && perCaller.length === 0 && budgetMax === undefined) return undefined;
  const budget: LimitRule | undefined =
    budgetMax === undefined
      ? undefined
      : { scope: 'budget', limit: 'dailyBudget', max: budgetMax, windowMs: BUDGET_KEY_MS };
  return { perRecipient, perCaller, budget, onStoreFailure, option };
}

/** `perRecipient` or `perCaller`, checked, as rules. */
function windowRules(
  value: RecipientLimits | CallerLimits | undefined,
  scope: 'perRecipient' | 'perCaller',
  option: string,
): LimitRule[] {
  const given = value ?? {};
  if (typeof given !== 'object' || given === null)
    throw new ConfigurationError(`${option}.${scope}`, 'must be an object');
  const rules: LimitRule[] = [];
  for (const [limit, windowMs] of WINDOWS) {
    const max = countLimit(given[limit], `${option}.${scope}.${limit}`);
    if (max !== undefined) rules.push({ scope, limit, max, windowMs });
  }
  return rules;
}

/** A whole number of at least 1 (or absent). */
function countLimit(value: unknown, option: string): number | undefined {
  return value === undefined ? undefined : wholeNumber(value, option, 1, { min: 1, max: Number.MAX_SAFE_INTEGER });
}
