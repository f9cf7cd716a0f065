import { createHash } from 'node:crypto';
import type { SharedStore } from '../cache/shared-store.js';
import type { Logger } from '../transport/logger.js';
import type { ResolvedResilience } from '../transport/resilience/resilience-options.js';
import type { FleetOptions, HashScanFleetOptions } from './fleet-options.js';
import { lookupWait, resolveFleet } from './fleet-options.js';
import { RedisLink } from './redis-link.js';
import { redisSharedStore } from './redis-store.js';
import { type GateCounters, SharedGate } from './shared-gate.js';
import { FleetLookups, type SingleFlightCounters } from './single-flight.js';

/*
 * The fleet room's front door: what a client builds from its `fleet` option.
 * This room may import the transport's small seams (logger, sleep, the
 * FleetGate interface, option checks) and the cache's store interface; the
 * clients import it, never the other way round.
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
  /** Attempts held by the fleet's pause or quota. */
  readonly held: number;
  /** How long those attempts were held in all, in ms. */
  readonly heldMs: number;
  /** `429` pauses this replica told the fleet about. */
  readonly pausesReported: number;
  /** Lookups this replica made as the fleet's owner of the hash. */
  readonly lookupsOwned: number;
  /** Lookups answered by another replica's request. */
  readonly lookupsJoined: number;
  /** Waits for another replica that ended with asking the service itself. */
  readonly lookupWaitsGivenUp: number;
}

/** A short, stable tag of `text` for keys (no URL in Redis's key space). */
export function keyTag(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
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
      readonly name: 'hashscan' | 'sms';
      readonly service: string;
      readonly logger: Logger;
      readonly resilience: ResolvedResilience;
    },
  ) {
    const fleet = resolveFleet(options);
    this.link = new RedisLink(fleet.redis, { timeoutMs: fleet.timeoutMs, logger: context.logger, name: context.name });
    this.keyPrefix = `${fleet.prefix}:${context.name}:${keyTag(context.service)}`;
    this.gate = new SharedGate(this.link, {
      keyPrefix: this.keyPrefix,
      maxPauseMs: context.resilience.maxPauseMs,
      rate: context.resilience.rate,
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

  /** The fleet's Redis as a shared cache store (lookups, when `cache.store` is not set). */
  store(): SharedStore {
    return redisSharedStore(this.link, this.keyPrefix);
  }

  /** For `toJSON()`: never the client itself. */
  get settings(): Record<string, unknown> {
    return this.#settings;
  }

  stats(): FleetStats {
    const gate: GateCounters = this.gate.counters;
    const lookups: SingleFlightCounters | undefined = this.lookups?.counters;
    return {
      redisErrors: this.link.counters.errors,
      redisSkipped: this.link.counters.skipped,
      held: gate.held,
      heldMs: Math.round(gate.heldMs),
      pausesReported: gate.pausesReported,
      lookupsOwned: lookups?.owned ?? 0,
      lookupsJoined: lookups?.joined ?? 0,
      lookupWaitsGivenUp: lookups?.gaveUp ?? 0,
    };
  }
}
