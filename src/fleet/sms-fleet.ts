import { SmsError } from '../errors/sms-error.js';
import type { Observers } from '../observe/observers.js';
import type { ResolvedResilience } from '../transport/resilience/resilience-options.js';
import { Fleet, type FleetStats } from './fleet.js';
import type { SmsFleetOptions } from './fleet-options.js';

export type { SmsFleetOptions } from './fleet-options.js';

import { type LimitRefusal, SmsLimits } from './sms-limits.js';

/** What `SmsClient` builds from its `fleet` option: the shared gate, and the sending limits. */
export class SmsFleet {
  readonly #fleet: Fleet;
  readonly #limits: SmsLimits | undefined;
  #refused = 0;

  readonly #observers: Observers;

  constructor(
    options: SmsFleetOptions,
    context: { readonly service: string; readonly observers: Observers; readonly resilience: ResolvedResilience },
  ) {
    this.#fleet = new Fleet(options, { ...context, name: 'sms' });
    this.#observers = context.observers;
    this.#limits = SmsLimits.from(this.#fleet.link, this.#fleet.keyPrefix, options.limits);
  }

  /** A client's `fleet` option as a fleet, or none. */
  static of(
    options: SmsFleetOptions | undefined,
    context: ConstructorParameters<typeof SmsFleet>[1],
  ): SmsFleet | undefined {
    return options === undefined ? undefined : new SmsFleet(options, context);
  }

  get gate(): Fleet['gate'] {
    return this.#fleet.gate;
  }

  /**
   * Runs `send` if the limits admit one message to each of `phoneNumbers`
   * (the comma-separated parameter); a refusal rejects with `SEND_LIMITED`
   * and sends nothing. A send that surely went nowhere (`not_sent`,
   * `rejected`) gives its share back.
   */
  async guard<T>(phoneNumbers: string, send: () => Promise<T>): Promise<T> {
    const limits = this.#limits;
    if (limits === undefined) return send();
    const admission = await limits.admit(phoneNumbers.split(','));
    if ('limit' in admission) {
      this.#refused += 1;
      if (this.#observers.listens('fleet:limited')) {
        this.#observers.emit({
          type: 'fleet:limited',
          client: 'sms',
          limit: admission.limit,
          retryAfterMs: admission.retryAfterMs,
        });
      }
      throw limitedError(admission);
    }
    try {
      return await send();
    } catch (error) {
      if (error instanceof SmsError && error.outcome !== 'unknown') limits.refund(admission);
      throw error;
    }
  }

  get settings(): Record<string, unknown> {
    return {
      ...this.#fleet.settings,
      ...(this.#limits !== undefined && { limits: this.#limits.settings }),
    };
  }

  /** `{ fleet: settings }`, to spread into `toJSON()`. */
  get described(): { readonly fleet: Record<string, unknown> } {
    return { fleet: this.settings };
  }

  /** `{ fleet: stats }`, to spread into `stats()`. */
  get counted(): { readonly fleet: SmsFleetStats } {
    return { fleet: this.stats() };
  }

  stats(): SmsFleetStats {
    return { ...this.#fleet.stats(), sendsLimited: this.#refused };
  }
}

/** Fleet counters of `SmsClient.stats()`. */
export interface SmsFleetStats extends FleetStats {
  /** Sends refused by `fleet.limits` (`SEND_LIMITED`), none of them sent. */
  readonly sendsLimited: number;
}

const LIMIT_TEXT = {
  perMinute: 'messages per phone number per minute',
  perHour: 'messages per phone number per hour',
  perDay: 'messages per phone number per day',
  dailyBudget: 'messages per day for the whole fleet',
} as const;

/** The refusal as the client's error; it names the limit, never the phone number. */
function limitedError(refusal: LimitRefusal): SmsError {
  return new SmsError({
    code: 'SEND_LIMITED',
    outcome: 'not_sent',
    message: `the send would exceed fleet.limits.${refusal.limit === 'dailyBudget' ? 'dailyBudget' : `perRecipient.${refusal.limit}`} (${refusal.max} ${LIMIT_TEXT[refusal.limit]}); nothing was sent. It may go in ${refusal.retryAfterMs} ms`,
    retryAfterMs: refusal.retryAfterMs,
  });
}
