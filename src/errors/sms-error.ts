import { brandErrorClass } from './brand.js';
import { HashScanSmsError, type HashScanSmsErrorInit } from './hashscan-sms-error.js';
import { type SmsErrorCategory, smsErrorCategory } from './sms-error-categories.js';

export type { SmsErrorCategory } from './sms-error-categories.js';

/**
 * Why a send did not succeed. Upper-case codes come from this package;
 * mixed-case codes are the service's own `Code` (the list is open-ended,
 * so any other service code can appear too).
 *
 * - `InvalidParameter`: a request field is missing or malformed. Raised
 *   client-side (then `outcome` is `not_sent`, `parameter` names the field and
 *   no request was made) or by the service (`outcome` is `rejected`).
 * - `SignatureDoesNotMatch`: the service computed another signature: wrong
 *   secret, or a key id/secret pair it does not hold.
 * - `MethodNotAllowed`: the service answered HTTP 405.
 * - `NETWORK`: the connection could not be made (DNS, refused, TLS); the
 *   request never left, so it was retried per `retry`.
 * - `OUTCOME_UNKNOWN`: time-out, or the connection broke after the request
 *   was written. The message may have been sent and billed; not re-sent
 *   unless `retryUnknownOutcome` is on.
 * - `ABORTED`: the caller's `signal` aborted; see `outcome` for whether the
 *   request was already on its way.
 * - `TIMEOUT`: the send's whole budget ran out (`totalTimeoutMs`, or the
 *   caller's `signal` aborted with a `TimeoutError`); see `outcome`. Never
 *   retried. (One attempt's `timeoutMs` is `OUTCOME_UNKNOWN`.)
 * - `CIRCUIT_OPEN`: the service failed repeatedly and the circuit breaker is
 *   open; this send was not made (`outcome: 'not_sent'`, unless an earlier
 *   attempt of the same send may have gone out). Send again after the cool-down.
 * - `HTTP_STATUS`: a non-2xx answer whose body is not a service response.
 * - `INVALID_RESPONSE`: a body that is not `{ Code, Message, RequestId }`
 *   (repeated keys included), a body over `maxResponseBytes`, or
 *   `Code: "OK"` with a non-2xx status. Never treated as a success.
 * - `CREDENTIALS`: the `credentials` provider threw, timed out or returned no
 *   usable credentials; nothing was sent (`outcome: 'not_sent'`).
 * - `SEND_LIMITED`: the send would exceed a `limits` sending limit (per
 *   phone number, or the daily budget); nothing was sent
 *   (`outcome: 'not_sent'`); `retryAfterMs` says when it may go.
 * - `LIMITS_UNAVAILABLE`: with `fleet` and `limits.onStoreFailure: 'refuse'`,
 *   the shared count could not be read (Redis failed, was slow, or holds a
 *   value out of range); with `'local'`, this replica already let one message
 *   to the number through that Redis has not recorded yet. Nothing was sent
 *   (`outcome: 'not_sent'`); `retryAfterMs` says when to try again.
 * - `DESTINATION_BLOCKED`: a recipient is outside the client's `destinations`
 *   rules (a country not in `allowCountries`, or one the metadata cannot
 *   place); `parameter` names it (`phoneNumbers[i]`). Nothing was sent
 *   (`outcome: 'not_sent'`).
 * - `DESTINATION_SUSPENDED`: `OtpVerifier`'s pumping guard suspended the
 *   number's destination prefix (too many codes sent there were never
 *   verified); nothing was sent (`outcome: 'not_sent'`); `retryAfterMs`
 *   says when the prefix opens again. Other prefixes are not affected.
 * - `RESEND_COOLDOWN`: `OtpVerifier.send` for a number that was sent a code
 *   less than `resendCooldownMs` ago; nothing was sent
 *   (`outcome: 'not_sent'`); `retryAfterMs` says when a new code may go.
 * - `VERIFICATION_UNAVAILABLE`: `OtpVerifier` could not reach the shared
 *   store of codes (the fleet's Redis failed, was slow or holds a record out
 *   of range where one must be written); nothing was sent
 *   (`outcome: 'not_sent'`); `retryAfterMs` says when to try again.
 *
 * `category` groups the service codes by what to do about them.
 */
export type SmsErrorCode =
  | 'InvalidParameter'
  | 'SignatureDoesNotMatch'
  | 'MethodNotAllowed'
  | 'NETWORK'
  | 'OUTCOME_UNKNOWN'
  | 'ABORTED'
  | 'TIMEOUT'
  | 'CIRCUIT_OPEN'
  | 'HTTP_STATUS'
  | 'INVALID_RESPONSE'
  | 'CREDENTIALS'
  | 'SEND_LIMITED'
  | 'LIMITS_UNAVAILABLE'
  | 'DESTINATION_BLOCKED'
  | 'DESTINATION_SUSPENDED'
  | 'RESEND_COOLDOWN'
  | 'VERIFICATION_UNAVAILABLE'
  // Any other code the service sends back; `& {}` keeps the names above in autocompletion.
  | (string & {});

/**
 * Whether the message may have gone out (and been billed).
 *
 * - `not_sent`: the request never reached the service (client-side
 *   validation, connection failure, abort before sending). Safe to send again.
 * - `rejected`: the service answered with an error `Code`: it did not send
 *   the message, and a failed send is not charged.
 * - `unknown`: the service may have sent it (time-out, broken connection,
 *   abort in flight, an answer that cannot be read, or an earlier attempt of
 *   the same send ended that way). Re-sending may deliver and bill it twice:
 *   check delivery first, or accept the duplicate knowingly.
 */
export type SmsOutcome = 'not_sent' | 'rejected' | 'unknown';

/** Fields of an {@link SmsError}. */
export interface SmsErrorInit extends HashScanSmsErrorInit {
  /** See {@link SmsError.code}. */
  readonly code: SmsErrorCode;
  /** See {@link SmsError.outcome}. */
  readonly outcome: SmsOutcome;
  /** See {@link SmsError.requestId}. */
  readonly requestId?: string | undefined;
  /** See {@link SmsError.serviceMessage}; pass redacted text only. */
  readonly serviceMessage?: string | undefined;
  /** See {@link SmsError.parameter}. */
  readonly parameter?: string | undefined;
  /** See {@link SmsError.retryAfterMs}. */
  readonly retryAfterMs?: number | undefined;
  /** See {@link SmsError.body}; pass redacted text only. */
  readonly body?: string | undefined;
  /** See {@link SmsError.issues}. */
  readonly issues?: readonly string[] | undefined;
  /** See {@link SmsError.stringToSign}; pass masked text only. */
  readonly stringToSign?: string | undefined;
}

/**
 * The one error `SmsClient.send` rejects with. Switch on `code`; read
 * `outcome` before deciding to send again.
 *
 * @example
 * ```ts
 * try { await sms.send(request) }
 * catch (error) {
 *   if (error instanceof SmsError && error.outcome === 'unknown') return flagForManualCheck(request, error)
 *   throw error
 * }
 * ```
 */
export class SmsError extends HashScanSmsError {
  static {
    brandErrorClass(SmsError, 'SmsError');
  }

  /** Why the send did not succeed; see {@link SmsErrorCode}. */
  readonly code: SmsErrorCode;
  /** Whether the message may have been sent; see {@link SmsOutcome}. */
  readonly outcome: SmsOutcome;
  /**
   * `RequestId` of the service's answer: a string (possibly empty, as on a
   * signature mismatch) when the service answered with its response shape,
   * `undefined` otherwise.
   */
  readonly requestId: string | undefined;
  /** The service's `Message` (redacted), when it answered with its response shape. */
  readonly serviceMessage: string | undefined;
  /** The HTTP status of the answer, when there was one (same as `status`). */
  readonly httpStatus: number | undefined;
  /** For a client-side `InvalidParameter`: the request field at fault, e.g. `templateParam`. */
  readonly parameter: string | undefined;
  /** Delay asked for by `Retry-After` on an `HTTP_STATUS` answer, in ms (at most 86 400 000, whatever the server asked); on `SEND_LIMITED`, `LIMITS_UNAVAILABLE` and the verifier's codes, when the send may go. */
  readonly retryAfterMs: number | undefined;
  /** The start of an unreadable body (at most 512 characters, redacted), for tracing. */
  readonly body: string | undefined;
  /** What exactly was wrong with the body, e.g. `RequestId: expected string`. */
  readonly issues: readonly string[] | undefined;
  /**
   * What kind of failure `code` is (see the README's table): `rate_limit`,
   * `recipient`, `content`, `account`, `auth`, or `unknown` for any code not
   * in the table, package codes such as `NETWORK` included.
   */
  readonly category: SmsErrorCategory;
  /** `true` exactly when `category` is `rate_limit`: send later, not again now. */
  readonly rateLimited: boolean;
  /**
   * On `SignatureDoesNotMatch`: the string-to-sign this client signed, with
   * phone numbers, template values, the key id and any security token
   * masked. Compare it with the server's; it never holds the secret.
   */
  readonly stringToSign: string | undefined;

  constructor(init: SmsErrorInit) {
    super(init);
    this.code = init.code;
    this.outcome = init.outcome;
    this.requestId = init.requestId;
    this.serviceMessage = init.serviceMessage;
    this.httpStatus = init.status;
    this.parameter = init.parameter;
    this.retryAfterMs = init.retryAfterMs;
    this.body = init.body;
    this.issues = init.issues;
    // A phone number refused client-side is a recipient problem, like the service's isv.MOBILE_NUMBER_ILLEGAL.
    this.category = init.parameter?.startsWith('phoneNumbers') ? 'recipient' : smsErrorCategory(init.code);
    this.rateLimited = this.category === 'rate_limit';
    this.stringToSign = init.stringToSign;
  }
}
