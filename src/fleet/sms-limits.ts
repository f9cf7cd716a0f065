import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import RateLimiterRedis from 'rate-limiter-flexible/lib/RateLimiterRedis.js';
import RateLimiterRes from 'rate-limiter-flexible/lib/RateLimiterRes.js';
import { createDigest, toBase64Url } from '../util/crypto.js';
import type { SmsFleetOptions } from './fleet-options.js';
import { countLimit } from './fleet-options.js';
import { type RedisLink, UNAVAILABLE } from './redis-link.js';

/*
 * SMS sending limits for the fleet, checked before any request: per phone
 * number (per minute, hour, day) and a daily budget of messages. Counted by
 * rate-limiter-flexible's RateLimiterRedis; while Redis is down or slow,
 * each replica counts on its own with the library's RateLimiterMemory (the
 * same limits, per replica), chosen by the bounded link rather than the
 * library's `insuranceLimiter`, which would switch silently and wait for a
 * slow Redis as long as it takes.
 */

/** Which limit refused a send. */
export type SendLimit = 'perMinute' | 'perHour' | 'perDay' | 'dailyBudget';

/** A send the limits refused: which limit, and when it may go. */
export interface LimitRefusal {
  readonly limit: SendLimit;
  readonly max: number;
  readonly retryAfterMs: number;
}

/** Points taken for one send, handed back if it was surely not sent. */
export interface Admission {
  readonly taken: ReadonlyArray<{ readonly counter: Counter; readonly key: string; readonly points: number }>;
}

const WINDOWS: ReadonlyArray<readonly [SendLimit & keyof RecipientLimitsShape, number]> = [
  ['perMinute', 60],
  ['perHour', 3_600],
  ['perDay', 86_400],
];
type RecipientLimitsShape = {
  perMinute?: number | undefined;
  perHour?: number | undefined;
  perDay?: number | undefined;
};

/** One limit: its fleet-wide counter and the per-replica one used while Redis is unavailable. */
interface Counter {
  readonly limit: SendLimit;
  readonly max: number;
  readonly shared: RateLimiterAbstract;
  readonly local: RateLimiterAbstract;
}

/** Refused (with how long to wait), or admitted. */
type Taken = { readonly refusedFor: number } | { readonly refusedFor: undefined };

/** The sending limits of one `SmsClient`. */
export class SmsLimits {
  readonly #link: RedisLink;
  readonly #recipients: readonly Counter[];
  readonly #budget: Counter | undefined;
  readonly #settings: Record<string, number>;

  /** `undefined` when `limits` sets none. */
  static from(link: RedisLink, keyPrefix: string, limits: SmsFleetOptions['limits']): SmsLimits | undefined {
    if (limits === undefined) return undefined;
    const perRecipient: RecipientLimitsShape = limits.perRecipient ?? {};
    const recipients: Counter[] = [];
    for (const [limit, seconds] of WINDOWS) {
      const max = countLimit(perRecipient[limit], `fleet.limits.perRecipient.${limit}`);
      if (max !== undefined) recipients.push(counter(link, `${keyPrefix}:rcpt:${limit}`, limit, max, seconds));
    }
    const budgetMax = countLimit(limits.dailyBudget, 'fleet.limits.dailyBudget');
    // Keys are per UTC date; they outlive the day a little, so a clock slightly off still finds its day's count.
    const budget =
      budgetMax === undefined ? undefined : counter(link, `${keyPrefix}:budget`, 'dailyBudget', budgetMax, 2 * 86_400);
    if (recipients.length === 0 && budget === undefined) return undefined;
    return new SmsLimits(link, recipients, budget);
  }

  private constructor(link: RedisLink, recipients: readonly Counter[], budget: Counter | undefined) {
    this.#link = link;
    this.#recipients = recipients;
    this.#budget = budget;
    this.#settings = Object.fromEntries(
      [...recipients, ...(budget === undefined ? [] : [budget])].map((c) => [c.limit, c.max]),
    );
  }

  /** The limits, for `toJSON()`. */
  get settings(): Record<string, number> {
    return this.#settings;
  }

  /**
   * Takes one message per phone number from every limit, or none: a refusal
   * hands back what it took, so refused sends never count.
   */
  async admit(phoneNumbers: readonly string[]): Promise<Admission | LimitRefusal> {
    const wanted: Array<{ counter: Counter; key: string; points: number }> = [];
    for (const counter of this.#recipients) {
      for (const number of new Set(phoneNumbers)) wanted.push({ counter, key: recipientKey(number), points: 1 });
    }
    if (this.#budget !== undefined) {
      wanted.push({ counter: this.#budget, key: new Date().toISOString().slice(0, 10), points: phoneNumbers.length });
    }
    const outcomes = await Promise.all(wanted.map((want) => this.#take(want.counter, want.key, want.points)));
    let refusal: LimitRefusal | undefined;
    outcomes.forEach((outcome, index) => {
      const { counter } = wanted[index] as (typeof wanted)[number];
      if (outcome.refusedFor !== undefined && (refusal === undefined || outcome.refusedFor > refusal.retryAfterMs)) {
        refusal = { limit: counter.limit, max: counter.max, retryAfterMs: outcome.refusedFor };
      }
    });
    if (refusal === undefined) return { taken: wanted };
    // A refused consume counted too: hand everything back.
    this.refund({ taken: wanted });
    return refusal;
  }

  /** Hands back what a send took (it was surely not sent, so not billed). Never waits, never throws. */
  refund(admission: Admission): void {
    for (const { counter, key, points } of admission.taken) {
      void this.#link
        .run(() => counter.shared.reward(key, points))
        .then((done) => {
          if (done === UNAVAILABLE) void counter.local.reward(key, points).catch(() => {});
        });
    }
  }

  async #take(counter: Counter, key: string, points: number): Promise<Taken> {
    const shared = await this.#link.run(() => consume(counter.shared, key, points));
    if (shared !== UNAVAILABLE) return shared;
    return consume(counter.local, key, points);
  }
}

function counter(link: RedisLink, keyPrefix: string, limit: SendLimit, max: number, seconds: number): Counter {
  return {
    limit,
    max,
    shared: new RateLimiterRedis({
      storeClient: link.client,
      useRedisPackage: link.kind === 'node-redis',
      keyPrefix,
      points: max,
      duration: seconds,
    }),
    local: new RateLimiterMemory({ keyPrefix, points: max, duration: seconds }),
  };
}

/** A refusal is an answer; anything else thrown is a store failure (rethrown for the link). */
function consume(limiter: RateLimiterAbstract, key: string, points: number): Promise<Taken> {
  return limiter.consume(key, points).then(
    (): Taken => ({ refusedFor: undefined }),
    (refusal: unknown): Taken => {
      if (refusal instanceof RateLimiterRes) return { refusedFor: Math.max(1, refusal.msBeforeNext) };
      throw refusal;
    },
  );
}

/** Phone numbers are not written to Redis as they are. */
function recipientKey(number: string): string {
  return toBase64Url(createDigest('sha256').update(number).bytes()).slice(0, 22);
}
