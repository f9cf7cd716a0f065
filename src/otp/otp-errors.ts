import { SmsError } from '../errors/sms-error.js';

/*
 * The verifier's refusals, each an SmsError with nothing sent, so one table
 * maps every failure of an OTP endpoint (docs/verification-codes.md).
 */

/** The destination prefix is suspended by the pumping guard. */
export const destinationSuspended = (retryAfterMs: number): SmsError =>
  new SmsError({
    code: 'DESTINATION_SUSPENDED',
    outcome: 'not_sent',
    retryAfterMs,
    message: `the destination prefix of this number is suspended for ${retryAfterMs} ms: too many codes sent there were never verified`,
  });

/** A code was sent to this phone less than the cool-down ago. */
export const resendCooldown = (retryAfterMs: number): SmsError =>
  new SmsError({
    code: 'RESEND_COOLDOWN',
    outcome: 'not_sent',
    retryAfterMs,
    message: `a code was sent to this number moments ago; a new one may go in ${retryAfterMs} ms`,
  });

/** How long to wait after the shared store failed: the fleet link's step aside. */
const STORE_RETRY_MS = 1_000;

/** The shared store of codes could not be read or written. */
export const verificationUnavailable = (): SmsError =>
  new SmsError({
    code: 'VERIFICATION_UNAVAILABLE',
    outcome: 'not_sent',
    retryAfterMs: STORE_RETRY_MS,
    message: 'the shared store of verification codes is unavailable; nothing was sent or checked',
  });

/** A field of a verifier request that is not what it must be (the message names it, never its value). */
export const invalidField = (parameter: string, problem: string): SmsError =>
  new SmsError({ code: 'InvalidParameter', outcome: 'not_sent', parameter, message: `${parameter}: ${problem}` });
