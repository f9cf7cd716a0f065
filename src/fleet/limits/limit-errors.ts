import { SmsError } from '../../errors/sms-error.js';
import { FLEET_BACKOFF_MS } from '../redis-link.js';
import type { LimitRefusal } from './local-counts.js';

/* The limits' refusals as the client's errors: they name the limit, never the phone number. */

const LIMIT_TEXT = {
  perMinute: 'messages per phone number per minute',
  perHour: 'messages per phone number per hour',
  perDay: 'messages per phone number per day',
  dailyBudget: 'messages per UTC day',
} as const;

/** A limit refused the send. */
export function limitedError(option: string, refusal: LimitRefusal): SmsError {
  const name = refusal.limit === 'dailyBudget' ? 'dailyBudget' : `perRecipient.${refusal.limit}`;
  return new SmsError({
    code: 'SEND_LIMITED',
    outcome: 'not_sent',
    message: `the send would exceed ${option}.${name} (${refusal.max} ${LIMIT_TEXT[refusal.limit]}); nothing was sent. It may go in ${refusal.retryAfterMs} ms`,
    retryAfterMs: refusal.retryAfterMs,
  });
}

/** The shared count could not say whether the send may go. */
export function unavailableError(option: string): SmsError {
  return new SmsError({
    code: 'LIMITS_UNAVAILABLE',
    outcome: 'not_sent',
    message: `the shared count of ${option} could not be read or has not recorded this phone number's last send yet (the fleet's Redis failed, was slow, or holds a value out of range; or too many sends wait to be recorded); nothing was sent. Try again in ${FLEET_BACKOFF_MS} ms`,
    retryAfterMs: FLEET_BACKOFF_MS,
  });
}
