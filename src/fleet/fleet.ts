import type { ClientName } from '../observe/events.js';
import type { Observers } from '../observe/observers.js';
import type { ResolvedResilience } from '../transport/resilience/resilience-options.js';
import { createDigest, toBase64Url } from '../util/crypto.js';
import type { FleetOptions, HashScanFleetOptions } from './fleet-options.js';
import { lookupWait, resolveFleet } from './fleet-options.js';
import { RedisLink } from './redis-link.js';
import { type FleetStore, redisSharedStore } from './redis-store.js';
import { type GateCounters, SharedGate } from './shared-gate.js';
import { FleetLookups, type SingleFlightCounters } from './single-flight.js';

/*
 * The fleet room's front door: what a client builds from its `fleet` option.
 * See README.md in this folder for what the room holds and may import.
 */

/**
 * Counters of the fleet features of one client (`stats().fleet`), cheap to
 * read and free of secrets.
 *
 * @example
 * ```ts
 * const { redisErrors, lookupsJoined } = client.stats().fleet ?? {}
 * ```
 */
export interface FleetStats {
  /** Redis calls that failed or took longer than `fleet.timeoutMs`. */
  readonly redisErrors: number;
  /** Redis calls not made while the fleet stepped aside after a failure. */
  readonly redisSkipped: number;
  /** Attempts held by the fleet's pause or quota, counted as each hold starts. */
  readonly held: number;
  /** How long those attempts were held in all, in ms (a hold counts once it ends). */
  readonly heldMs: number;
  /** Attempts held by the fleet's pause or quota right now. */
  readonly holding: number;
  /** When the fleet's pause, as this replica last read it, ends (ms since the epoch); `undefined` when none is in force. */
  readonly pausedUntil: number | undefined;
  /**
   * Values read from Redis out of range (a pause or lock longer than its cap
   * or without expiry, a quota counter no replica could have made): never
   * obeyed, each counted as a Redis failure (also in `redisErrors`).
   */
  readonly redisOutOfRange: number;
  /** `429` pauses this replica told the fleet about. */
  readonly pausesReported: number;
  /** Lookups this replica made as the fleet's owner of the hash. */
  readonly lookupsOwned: number;
  /** Lookups answered by another replica's request. */
  readonly lookupsJoined: number;
  /** Waits for another replica that ended with asking the service itself. */
  readonly lookupWaitsGivenUp: number;
}

/** What `cacheOptions` needs of a client's cache options (the lookups' `cache`). */
export interface CacheWithStore {
  readonly store?: FleetStore | undefined;
  readonly storeTimeoutMs?: number | undefined;
}

/** A short, stable tag of `text` for keys (no URL in Redis's key space). */
export function keyTag(text: string): string {
  return toBase64Url(createDigest('sha256').update(text).bytes()).slice(0, 16);
}

/** What a client builds from `fleet`: the link, its gate, and (lookups) the single request per hash. */
export class Fleet {
  readonly link: RedisLink;
  readonly gate: SharedGate;
  readonly keyPrefix: string;
  readonly lookups: FleetLookups | undefined;
  readonly #settings: Record<string, unknown>;

  constructor(
    options: FleetOptions & Pick<HashScanFleetOptions, 'lookupWaitMs'>,
    context: {
      readonly name: ClientName;
      readonly service: string;
      readonly observers: Observers;
      readonly resilience: ResolvedResilience;
    },
  ) {
    const fleet = resolveFleet(options);
    this.link = new RedisLink(fleet.redis, {
      timeoutMs: fleet.timeoutMs,
      observers: context.observers,
      name: context.name,
    });
    this.keyPrefix = `${fleet.prefix}:${context.name}:${keyTag(context.service)}`;
    this.gate = new SharedGate(this.link, {
      keyPrefix: this.keyPrefix,
      maxPauseMs: context.resilience.maxPauseMs,
      rate: context.resilience.rate,
      observers: context.observers,
      name: context.name,
    });
    const waitMs = context.name === 'hashscan' ? lookupWait(options.lookupWaitMs) : 0;
    this.lookups = waitMs === 0 ? undefined : new FleetLookups(this.link, { keyPrefix: this.keyPrefix, waitMs });
    this.#settings = {
      redis: this.link.kind,
      prefix: fleet.prefix,
      timeoutMs: fleet.timeoutMs,
      ...(context.name === 'hashscan' && { lookupWaitMs: waitMs }),
    };
  }

  /** A client's `fleet` option as a fleet, or none. */
  static of(
    options: (FleetOptions & Pick<HashScanFleetOptions, 'lookupWaitMs'>) | undefined,
    context: ConstructorParameters<typeof Fleet>[1],
  ): Fleet | undefined {
    return options === undefined ? undefined : new Fleet(options, context);
  }

  /** `cache` with the fleet's Redis as its shared store (bounded by `fleet.timeoutMs`), unless the application set one. */
  cacheOptions<C extends CacheWithStore>(cache: C): C {
    if (cache.store !== undefined) return cache;
    return {
      ...cache,
      store: redisSharedStore(this.link, this.keyPrefix),
      storeTimeoutMs: cache.storeTimeoutMs ?? this.link.timeoutMs,
    };
  }

  /** For `toJSON()`: never the client itself. */
  get settings(): Record<string, unknown> {
    return this.#settings;
  }

  /** `{ fleet: settings }`, to spread into a client's `toJSON()`. */
  get described(): { readonly fleet: Record<string, unknown> } {
    return { fleet: this.#settings };
  }

  /** `{ fleet: stats }`, to spread into a client's `stats()`. */
  get counted(): { readonly fleet: FleetStats } {
    return { fleet: this.stats() };
  }

  stats(): FleetStats {
    const gate: GateCounters = this.gate.counters;
    const lookups: SingleFlightCounters | undefined = this.lookups?.counters;
    return {
      redisErrors: this.link.counters.errors,
      redisSkipped: this.link.counters.skipped,
      held: gate.held,
      heldMs: Math.round(gate.heldMs),
      holding: gate.holding,
      pausedUntil: this.gate.pausedUntil,
      redisOutOfRange: this.link.counters.outOfRange,
      pausesReported: gate.pausesReported,
      lookupsOwned: lookups?.owned ?? 0,
      lookupsJoined: lookups?.joined ?? 0,
      lookupWaitsGivenUp: lookups?.gaveUp ?? 0,
    };
  }
}
