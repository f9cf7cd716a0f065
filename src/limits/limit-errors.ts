import { SmsError } from '../errors/sms-error.js';
import { FLEET_BACKOFF_MS } from '../redis/redis-link.js';
import type { LimitRefusal } from './local-counts.js';

/* The limits' refusals as the client's errors: they name the limit, never the phone number. */

const PER = { perMinute: 'per minute', perHour: 'per hour', perDay: 'per day', dailyBudget: 'per UTC day' } as const;
const WHO = { perRecipient: ' per phone number', perCaller: ' per caller', budget: '' } as const;

/** The limit's name in messages and events: `dailyBudget`, `perRecipient.perHour`, `perCaller.perMinute`. */
export function limitName(refusal: LimitRefusal): string {
  return refusal.scope === 'budget' ? 'dailyBudget' : `${refusal.scope}.${refusal.limit}`;
}

/** A limit refused the send. */
export function limitedError(option: string, refusal: LimitRefusal): SmsError {
  return new SmsError({
    code: 'SEND_LIMITED',
    outcome: 'not_sent',
    message: `the send would exceed ${option}.${limitName(refusal)} (${refusal.max} messages${WHO[refusal.scope]} ${PER[refusal.limit]}); nothing was sent. It may go in ${refusal.retryAfterMs} ms`,
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
