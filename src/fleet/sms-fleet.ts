import type { Observers } from '../observe/observers.js';
import type { ResolvedResilience } from '../transport/resilience/resilience-options.js';
import { Fleet } from './fleet.js';
import type { SmsFleetOptions } from './fleet-options.js';
import type { LimitsStore } from './limits/send-limits.js';

export type { SmsFleetOptions } from './fleet-options.js';

/** What `SmsClient` builds from its `fleet` option: the shared gate, and where the sending limits live. */
export class SmsFleet {
  readonly #fleet: Fleet;
  #sendsLimited: () => number = () => 0;

  constructor(
    options: SmsFleetOptions,
    context: { readonly service: string; readonly observers: Observers; readonly resilience: ResolvedResilience },
  ) {
    this.#fleet = new Fleet(options, { ...context, name: 'sms' });
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

/**
 * Fleet counters of `SmsClient.stats()`: the Redis link's, the shared
 * `429` pause and quota's, and the limits' refusals (the lookups' counters of
 * `HashScanClient` mean nothing for sends and are not here). The limits'
 * own counters are `stats().limits`.
 *
 * @example
 * ```ts
 * const { redisErrors, held } = sms.stats().fleet ?? {}
 * ```
 */
export interface SmsFleetStats {
  /** Redis calls that failed or took longer than `fleet.timeoutMs`. */
  readonly redisErrors: number;
  /** Redis calls not made while the fleet stepped aside after a failure. */
  readonly redisSkipped: number;
  /** Values read from Redis out of range (a forged pause or quota counter): never obeyed, also in `redisErrors`. */
  readonly redisOutOfRange: number;
  /** Attempts held by the fleet's pause or quota. */
  readonly held: number;
  /** How long those attempts were held in all, in ms. */
  readonly heldMs: number;
  /** Sends held by the fleet's pause or quota right now (a forged pause holds sends too). */
  readonly holding: number;
  /** When the fleet's pause, as this replica last read it, ends (ms since the epoch); `undefined` when none is in force. */
  readonly pausedUntil: number | undefined;
  /** `429` pauses this replica told the fleet about. */
  readonly pausesReported: number;
  /** Sends refused by `limits` (`SEND_LIMITED`), none of them sent (the same as `stats().limits.refused`). */
  readonly sendsLimited: number;
}
