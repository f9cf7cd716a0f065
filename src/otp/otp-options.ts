import { positiveMs, wholeNumber } from '../config/numbers.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import type { FleetOptions } from '../fleet-plugin/fleet-options.js';
import type { FleetPlugin } from '../fleet-plugin/fleet-plugin.js';
import { type Logger, silentLogger } from '../observe/logger.js';
import { DEFAULT_PHONE_REGION, isPhoneRegion, type PhoneRegion } from '../phone/canonical-phone.js';
import type { SendSmsOptions } from '../sms/send-options.js';
import type { SendSmsRequest } from '../sms/send-request.js';
import type { SendSmsResult } from '../sms/send-result.js';
import type { GuardRules, PumpingGuardOptions } from './pumping-guard.js';

/** What the verifier uses of an `SmsClient`: its `send`, with the caller passed for per-caller limits. */
export interface OtpSmsSender {
  /** `SmsClient.send`: the verifier passes the caller it was given as `options.caller` (the per-caller limits). */
  send(request: SendSmsRequest, options?: SendSmsOptions): Promise<SendSmsResult>;
}

/**
 * Options of `OtpVerifier`.
 *
 * @example
 * ```ts
 * const verifier = new OtpVerifier({ sms, templateCode: 'SMS_100000001' }) // 6 digits, 10 minutes, 5 checks
 * ```
 */
export interface OtpVerifierOptions {
  /** The client that sends the codes (an `SmsClient`; one per process). */
  readonly sms: OtpSmsSender;
  /** The template of the verification message. */
  readonly templateCode: string;
  /**
   * The template value the code goes in.
   * @defaultValue `'code'`
   */
  readonly codeParam?: string | undefined;
  /**
   * Digits per code, 4 to 10.
   * @defaultValue 6
   */
  readonly codeLength?: number | undefined;
  /**
   * How long a code is valid, in ms.
   * @defaultValue 600_000 (10 minutes)
   */
  readonly ttlMs?: number | undefined;
  /**
   * Checks one code allows, right or wrong; past them it is `too_many_attempts`.
   * @defaultValue 5
   */
  readonly maxAttempts?: number | undefined;
  /**
   * How long after a send a new code for the same phone is refused (`RESEND_COOLDOWN`), in ms.
   * @defaultValue 30_000
   */
  readonly resendCooldownMs?: number | undefined;
  /**
   * Where a number written without an international prefix belongs (ISO 3166-1 alpha-2).
   * @defaultValue `'CN'`
   */
  readonly defaultRegion?: PhoneRegion | undefined;
  /**
   * The key of the codes' HMAC, at least 32 bytes (a string is read as UTF-8). Replicas sharing a
   * `fleet` must share it (required then); alone, a random key per process is made.
   * @defaultValue 32 random bytes per process (without `fleet`)
   */
  readonly secret?: string | Uint8Array | undefined;
  /**
   * Keep codes, attempts and the pumping guard in the fleet's Redis, shared by the replicas:
   * `redisFleet({ redis, prefix, timeoutMs })` of `hashscan-sms/fleet` (the plain `{ redis, … }` form is
   * deprecated, same behaviour). Needs `secret`.
   * @defaultValue none: in this process
   * @example `fleet: redisFleet({ redis, prefix: 'otp:prod' })`
   */
  readonly fleet?: FleetPlugin | FleetOptions | undefined;
  /**
   * Most codes kept in memory (without `fleet`); past it the oldest is forgotten.
   * @defaultValue 100_000
   */
  readonly maxStoredCodes?: number | undefined;
  /**
   * The pumping guard (see {@link PumpingGuardOptions}); `false` turns it off.
   * @defaultValue on, with its defaults
   */
  readonly pumpingGuard?: PumpingGuardOptions | false | undefined;
  /**
   * Console-like logger (`console` works): with `fleet`, one line when the verifier's Redis fails and
   * one when it answers again. Codes, phones and the secret are never logged.
   * @defaultValue silent
   */
  readonly logger?: Logger | undefined;
  /**
   * The clock, in epoch ms (tests move it instead of sleeping).
   * @defaultValue `Date.now`
   */
  readonly now?: (() => number) | undefined;
}

/** The checked options. */
export interface OtpSettings {
  readonly sms: OtpSmsSender;
  readonly templateCode: string;
  readonly codeParam: string;
  readonly codeLength: number;
  readonly ttlMs: number;
  readonly maxAttempts: number;
  readonly cooldownMs: number;
  readonly region: PhoneRegion;
  readonly secret: Uint8Array;
  readonly maxStoredCodes: number;
  readonly guard: GuardRules | undefined;
  readonly now: () => number;
  readonly logger: Logger;
}

const HOUR_MS = 3_600_000;
const MIN_SECRET_BYTES = 32;

function text(value: unknown, option: string): string {
  if (typeof value !== 'string' || value === '') throw new ConfigurationError(option, 'must be a non-empty string');
  return value;
}

function secretKey(value: unknown, shared: boolean): Uint8Array {
  if (value === undefined) {
    if (shared) throw new ConfigurationError('secret', 'is required with fleet: every replica must hash codes alike');
    return globalThis.crypto.getRandomValues(new Uint8Array(MIN_SECRET_BYTES));
  }
  const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
  if (!(bytes instanceof Uint8Array) || bytes.length < MIN_SECRET_BYTES) {
    throw new ConfigurationError('secret', `must be a string or bytes of at least ${MIN_SECRET_BYTES} bytes`);
  }
  return new Uint8Array(bytes);
}

function checkLogger(value: Logger | undefined): Logger {
  if (value === undefined) return silentLogger;
  for (const level of ['debug', 'info', 'warn', 'error'] as const) {
    if (typeof value?.[level] !== 'function') throw new ConfigurationError('logger', `must have a ${level}() method`);
  }
  return value;
}

function guardRules(options: PumpingGuardOptions | false | undefined): GuardRules | undefined {
  if (options === false) return undefined;
  const given = options ?? {};
  if (typeof given !== 'object' || given === null)
    throw new ConfigurationError('pumpingGuard', 'must be an object or false');
  const rate = given.minConversionRate ?? 0.5;
  if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) {
    throw new ConfigurationError('pumpingGuard.minConversionRate', 'must be a number from 0 to 1');
  }
  return {
    prefixDigits: wholeNumber(given.prefixDigits, 'pumpingGuard.prefixDigits', 7, { min: 1, max: 15 }),
    windowMs: positiveMs(given.windowMs, 'pumpingGuard.windowMs', HOUR_MS),
    maxUnverified: wholeNumber(given.maxUnverified, 'pumpingGuard.maxUnverified', 30, { min: 1, max: 1_000_000 }),
    minConversionRate: rate,
    suspendMs: positiveMs(given.suspendMs, 'pumpingGuard.suspendMs', HOUR_MS),
  };
}

/** Checks the options of `OtpVerifier` and fills in the defaults. */
export function resolveOtpSettings(options: OtpVerifierOptions): OtpSettings {
  if (typeof options !== 'object' || options === null) throw new ConfigurationError('options', 'must be an object');
  if (typeof options.sms?.send !== 'function') throw new ConfigurationError('sms', 'must be an SmsClient');
  const region = options.defaultRegion ?? DEFAULT_PHONE_REGION;
  if (!isPhoneRegion(region)) throw new ConfigurationError('defaultRegion', 'must be an ISO 3166-1 alpha-2 region');
  const now = options.now ?? Date.now;
  if (typeof now !== 'function') throw new ConfigurationError('now', 'must be a function returning epoch ms');
  return {
    sms: options.sms,
    templateCode: text(options.templateCode, 'templateCode'),
    codeParam: options.codeParam === undefined ? 'code' : text(options.codeParam, 'codeParam'),
    codeLength: wholeNumber(options.codeLength, 'codeLength', 6, { min: 4, max: 10 }),
    ttlMs: positiveMs(options.ttlMs, 'ttlMs', 10 * 60_000),
    maxAttempts: wholeNumber(options.maxAttempts, 'maxAttempts', 5, { min: 1, max: 100 }),
    cooldownMs: wholeNumber(options.resendCooldownMs, 'resendCooldownMs', 30_000, { min: 0 }),
    region,
    secret: secretKey(options.secret, options.fleet !== undefined),
    maxStoredCodes: wholeNumber(options.maxStoredCodes, 'maxStoredCodes', 100_000, { min: 1, max: 10_000_000 }),
    guard: guardRules(options.pumpingGuard),
    now,
    logger: checkLogger(options.logger),
  };
}
