/**
 * The one error table of an OTP endpoint (docs/verification-codes.md), as code: what to answer, with
 * which status and `Retry-After`, for each way `OtpVerifier.send` and `check` can end.
 */
import type { OtpCheckResult, SmsError } from 'hashscan-sms';

/** An HTTP answer: status, optional `Retry-After` in seconds, JSON body. */
export interface HttpAnswer {
  readonly status: number;
  readonly retryAfterSeconds?: number;
  readonly body: Readonly<Record<string, unknown>>;
}

/** Whole seconds, at least 1, of `ms` (or of `fallbackMs` when the error gives none). */
const seconds = (ms: number | undefined, fallbackMs: number): number =>
  Math.max(1, Math.ceil((ms ?? fallbackMs) / 1000));

/** Our own configuration or a fault of the package's use: log it, alert, answer 500 (never the details). */
const OURS: HttpAnswer = { status: 500, body: { error: 'internal' } };

/** The answer to a send (or a check) that rejected with `error`; `resendCooldownMs` as configured. */
export function smsErrorAnswer(error: SmsError, resendCooldownMs: number): HttpAnswer {
  // It may have arrived: the code stays valid. Say so, and hold the user back as a sent code would.
  if (error.outcome === 'unknown') {
    return { status: 202, retryAfterSeconds: seconds(resendCooldownMs, 0), body: { status: 'maybe_sent' } };
  }
  switch (error.code) {
    case 'RESEND_COOLDOWN':
    case 'SEND_LIMITED':
    case 'DESTINATION_SUSPENDED':
      return { status: 429, retryAfterSeconds: seconds(error.retryAfterMs, 60_000), body: { error: error.code } };
    case 'VERIFICATION_UNAVAILABLE':
    case 'LIMITS_UNAVAILABLE':
    case 'CIRCUIT_OPEN':
    case 'NETWORK':
    case 'TIMEOUT':
    case 'ABORTED':
    case 'HTTP_STATUS':
    case 'CREDENTIALS':
      return { status: 503, retryAfterSeconds: seconds(error.retryAfterMs, 30_000), body: { error: 'unavailable' } };
    case 'DESTINATION_BLOCKED':
      return { status: 422, body: { error: error.code } };
    case 'InvalidParameter':
      // The user's input (the phone, the code) is a 400; any other field is this service's bug.
      return error.outcome === 'not_sent' && /^(phoneNumber|code)/.test(error.parameter ?? '')
        ? { status: 400, body: { error: 'invalid', field: error.parameter } }
        : OURS;
  }
  if (error.category === 'recipient') return { status: 422, body: { error: 'number_not_reachable' } };
  if (error.category === 'rate_limit') return { status: 429, retryAfterSeconds: 60, body: { error: error.code } };
  return OURS;
}

/** The answer to a check that resolved. */
export function checkAnswer(result: OtpCheckResult): HttpAnswer {
  if (result.valid) return { status: 200, body: { verified: true } };
  // Past the attempts only a new code helps (its send has its own cool-down).
  if (result.reason === 'too_many_attempts') return { status: 429, body: { error: result.reason } };
  return { status: 400, body: { error: result.reason } };
}
