import { createDigest, toBase64Url } from '../util/crypto.js';
import type { ResolvedLimits } from './limits-options.js';
import type { Want } from './local-counts.js';

/*
 * The counters one send takes from. Phone numbers (canonical, E.164) and
 * callers are hashed before they become keys: neither is written to Redis,
 * nor kept in this process, as it is.
 */

/** Who one send is for and from, as the limits count them. */
export interface SendParties {
  /** Each recipient's canonical (E.164) number, distinct. */
  readonly recipients: readonly string[];
  /** The caller of `send(request, { caller })`, when given. */
  readonly caller?: string | undefined;
}

/** A short, fixed-length stand-in for a phone number or a caller in a key. */
function hashed(value: string): string {
  return toBase64Url(createDigest('sha256').update(value).bytes()).slice(0, 22);
}

/** The counters `parties` take from under `rules`, keys under `keyPrefix`. */
export function wantsOf(rules: ResolvedLimits, keyPrefix: string, parties: SendParties): Want[] {
  const recipients = [...new Set(parties.recipients)];
  const wants: Want[] = [];
  for (const rule of rules.perRecipient) {
    for (const number of recipients) {
      wants.push({ rule, key: `${keyPrefix}:${rule.limit}:${hashed(number)}`, points: 1 });
    }
  }
  const { caller } = parties;
  if (caller !== undefined) {
    for (const rule of rules.perCaller) {
      // Its own namespace: a caller string can never name a phone number's counter.
      wants.push({ rule, key: `${keyPrefix}:caller:${rule.limit}:${hashed(caller)}`, points: recipients.length });
    }
  }
  const budget = rules.budget;
  if (budget !== undefined) {
    const day = new Date().toISOString().slice(0, 10);
    wants.push({ rule: budget, key: `${keyPrefix}:budget:${day}`, points: recipients.length });
  }
  return wants;
}
