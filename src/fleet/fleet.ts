import { lookupWait, type RedisFleetOptions, resolveFleet } from '../fleet-plugin/fleet-options.js';
import type { CacheWithStore, LookupFleet } from '../fleet-plugin/fleet-plugin.js';
import type { FleetStats } from '../fleet-plugin/fleet-stats.js';
import type { ClientName } from '../observe/events.js';
import type { Observers } from '../observe/observers.js';
import { RedisLink } from '../redis/redis-link.js';
import type { ResolvedResilience } from '../transport/resilience/resilience-options.js';
import { createDigest, toBase64Url } from '../util/crypto.js';
import { redisSharedStore } from './redis-store.js';
import { type GateCounters, SharedGate } from './shared-gate.js';
import { FleetLookups, type SingleFlightCounters } from './single-flight.js';

/*
 * What a client binds of a Redis fleet: the link, its gate, and (lookups) the
 * single request per hash. See README.md in this folder for the room.
 */

/** A short, stable tag of `text` for keys (no URL in Redis's key space). */
export function keyTag(text: string): string {
  return toBase64Url(createDigest('sha256').update(text).bytes()).slice(0, 16);
}

/** What a client binds of a Redis fleet: the link, its gate, and (lookups) the single request per hash. */
export class Fleet implements LookupFleet {
  readonly link: RedisLink;
  readonly gate: SharedGate;
  readonly keyPrefix: string;
  readonly lookups: FleetLookups | undefined;
  readonly #settings: Record<string, unknown>;

  constructor(
    options: RedisFleetOptions,
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
