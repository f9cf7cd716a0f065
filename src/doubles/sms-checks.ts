/**
 * The SMS double's replay and clock checks (as the vendor's gateway does
 * them: a `Timestamp` within 15 minutes of the server's clock, a
 * `SignatureNonce` used once) and its fault switch: phone numbers that get a
 * chosen error `Code`, one per error category, so callers can test how they
 * handle a rate limit or an empty balance. The msw handlers and the sandbox
 * share them through the SMS service.
 * @module
 */
import { type SmsAnswer, smsFailure } from './sms-answer.js';

/** How far a `Timestamp` may be from the double's clock by default: the vendor's 15 minutes. */
export const DEFAULT_TIMESTAMP_TOLERANCE_MS = 15 * 60_000;
/** Nonces remembered at most; beyond it the oldest are forgotten first. */
const MAX_NONCES = 100_000;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/**
 * Phone numbers the default SMS double refuses with one representative code
 * per error category (checked after the signature, before the other
 * parameters, so a request must be correctly signed to reach them).
 *
 * @example
 * ```ts
 * const error = await sms.send({ ...request, phoneNumbers: SANDBOX_FAULT_PHONE_NUMBERS.rate_limit }).catch((e) => e)
 * error.rateLimited // true
 * ```
 */
export const SANDBOX_FAULT_PHONE_NUMBERS = Object.freeze({
  /** Answered `isv.BUSINESS_LIMIT_CONTROL`. */
  rate_limit: '19900000001',
  /** Answered `isv.MOBILE_NUMBER_ILLEGAL`. */
  recipient: '19900000002',
  /** Answered `isv.SMS_CONTENT_ILLEGAL`. */
  content: '19900000003',
  /** Answered `isv.AMOUNT_NOT_ENOUGH` (an empty balance). */
  account: '19900000004',
  /** Answered `InvalidAccessKeyId.Inactive`. */
  auth: '19900000005',
  /** Answered `isp.SYSTEM_ERROR`, a code outside the table. */
  unknown: '19900000006',
} as const);

/** The default `faults` option: each of {@link SANDBOX_FAULT_PHONE_NUMBERS} → its code. */
export const SANDBOX_SMS_FAULTS: Readonly<Record<string, string>> = Object.freeze({
  [SANDBOX_FAULT_PHONE_NUMBERS.rate_limit]: 'isv.BUSINESS_LIMIT_CONTROL',
  [SANDBOX_FAULT_PHONE_NUMBERS.recipient]: 'isv.MOBILE_NUMBER_ILLEGAL',
  [SANDBOX_FAULT_PHONE_NUMBERS.content]: 'isv.SMS_CONTENT_ILLEGAL',
  [SANDBOX_FAULT_PHONE_NUMBERS.account]: 'isv.AMOUNT_NOT_ENOUGH',
  [SANDBOX_FAULT_PHONE_NUMBERS.auth]: 'InvalidAccessKeyId.Inactive',
  [SANDBOX_FAULT_PHONE_NUMBERS.unknown]: 'isp.SYSTEM_ERROR',
});

/** The double's clock, tolerance and used nonces. */
export interface ReplayGuard {
  /** The double's current time, in epoch ms (the local clock plus its `clockOffsetMs`). */
  now(): number;
  /** `InvalidTimeStamp.*`, `MissingSignatureNonce` or `SignatureNonceUsed`, or `undefined` when fresh. */
  check(params: Readonly<Record<string, string>>): SmsAnswer | undefined;
}

/** A guard whose clock is `clockOffsetMs` away from the local one. */
export function createReplayGuard(clockOffsetMs: number, toleranceMs: number): ReplayGuard {
  /** Nonce → when it may be forgotten (a replay after that fails the timestamp check anyway). */
  const nonces = new Map<string, number>();
  const now = (): number => Date.now() + clockOffsetMs;
  const forgetOld = (at: number): void => {
    for (const [nonce, until] of nonces) {
      if (until > at && nonces.size < MAX_NONCES) break;
      nonces.delete(nonce);
    }
  };
  return {
    now,
    check(params) {
      const timestamp = Object.hasOwn(params, 'Timestamp') ? params.Timestamp : undefined;
      const sentAt = timestamp !== undefined && TIMESTAMP.test(timestamp) ? Date.parse(timestamp) : Number.NaN;
      if (!Number.isFinite(sentAt)) {
        return smsFailure('InvalidTimeStamp.Format', 'Timestamp must be UTC in the form YYYY-MM-DDThh:mm:ssZ');
      }
      const at = now();
      if (Math.abs(at - sentAt) > toleranceMs) {
        return smsFailure('InvalidTimeStamp.Expired', 'Specified time stamp or date value is expired.');
      }
      const nonce = Object.hasOwn(params, 'SignatureNonce') ? params.SignatureNonce : undefined;
      if (nonce === undefined || nonce === '') return smsFailure('MissingSignatureNonce', 'SignatureNonce is required');
      forgetOld(at);
      if (nonces.has(nonce)) return smsFailure('SignatureNonceUsed', 'Specified signature nonce was used already.');
      nonces.set(nonce, at + 2 * toleranceMs);
      return undefined;
    },
  };
}

/** The fault answer for a send to any of `phoneNumbers`, if one is configured. */
export function faultFor(
  faults: Readonly<Record<string, string>>,
  phoneNumbers: readonly string[],
): SmsAnswer | undefined {
  for (const number of phoneNumbers) {
    if (Object.hasOwn(faults, number)) {
      const code = faults[number] as string;
      return smsFailure(code, `sandbox fault for ${number.slice(0, 3)}***: ${code}`);
    }
  }
  return undefined;
}
