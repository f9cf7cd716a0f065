import type { RedisFleetOptions } from '../fleet-plugin/fleet-options.js';
import type { FleetContext, SendFleet } from '../fleet-plugin/fleet-plugin.js';
import type { SmsFleetStats } from '../fleet-plugin/fleet-stats.js';
import type { LimitsStore } from '../limits/send-limits.js';
import { Fleet } from './fleet.js';

/** What `SmsClient` binds of a Redis fleet: the shared gate, and where the sending limits live. */
export class SmsFleet implements SendFleet {
  readonly #fleet: Fleet;
  #sendsLimited: () => number = () => 0;

  constructor(options: RedisFleetOptions, context: FleetContext) {
    this.#fleet = new Fleet(options, { ...context, name: 'sms' });
  }

  get gate(): Fleet['gate'] {
    return this.#fleet.gate;
  }

  /** The Redis link and key prefix the sending limits share. */
  get store(): LimitsStore {
    return { link: this.#fleet.link, keyPrefix: this.#fleet.keyPrefix };
  }

  /** Where `sendsLimited` is read from (the client's limits). */
  countLimited(read: () => number): void {
    this.#sendsLimited = read;
  }

  /** `{ fleet: settings }`, to spread into `toJSON()`. */
  get described(): { readonly fleet: Record<string, unknown> } {
    return this.#fleet.described;
  }

  /** `{ fleet: stats }`, to spread into `stats()`. */
  get counted(): { readonly fleet: SmsFleetStats } {
    return { fleet: this.stats() };
  }

  /** The fleet counters that mean something for sends: the link's, the shared gate's, the limits' refusals. */
  stats(): SmsFleetStats {
    const { redisErrors, redisSkipped, redisOutOfRange, held, heldMs, holding, pausedUntil, pausesReported } =
      this.#fleet.stats();
    return {
      redisErrors,
      redisSkipped,
      redisOutOfRange,
      held,
      heldMs,
      holding,
      pausedUntil,
      pausesReported,
      sendsLimited: this.#sendsLimited(),
    };
  }
}
