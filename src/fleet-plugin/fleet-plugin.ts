import { ConfigurationError } from '../errors/configuration-error.js';
import type { LimitsStore } from '../limits/send-limits.js';
import type { Observers } from '../observe/observers.js';
import type { RedisLink } from '../redis/redis-link.js';
import type { SharedStore } from '../store/shared-store.js';
import type { FleetGate } from '../transport/resilience/fleet-gate.js';
import type { ResolvedResilience } from '../transport/resilience/resilience-options.js';
import type { AbortLike } from '../util/abort-like.js';
import type { FleetOptions } from './fleet-options.js';
import type { FleetStats, SmsFleetStats } from './fleet-stats.js';

/*
 * The contract between the clients and a fleet plugin. A plugin is an opaque
 * object (`FleetPlugin`) carrying its parts under a registered symbol, so a
 * plugin made by one copy of the package (its ESM or CJS build) serves a
 * client of the other, and the parts stay off `util.inspect` and the public
 * surface. Each client binds the part it needs to its own context: the
 * transport sees only the `FleetGate`, the lookups' cache only a store.
 */

/**
 * State shared by the replicas of a service, as the clients take it in their
 * `fleet` option: made by `redisFleet()` of `hashscan-sms/fleet`. One object
 * can serve every client of a process (`HashScanClient`, `SmsClient`,
 * `OtpVerifier`); each builds its own bounded link to the store from it.
 *
 * @example
 * ```ts
 * import { redisFleet } from 'hashscan-sms/fleet'
 * const fleet = redisFleet({ redis, prefix: 'scanner:prod' })
 * const client = new HashScanClient({ fleet })
 * const sms = new SmsClient({ fleet, limits: { perRecipient: { perMinute: 1 } } })
 * ```
 */
export interface FleetPlugin {
  /** What the fleet shares its state through. */
  readonly kind: 'redis';
}

/** What a client hands its fleet part: the service it calls, its observers, its resolved resilience. */
export interface FleetContext {
  readonly service: string;
  readonly observers: Observers;
  readonly resilience: ResolvedResilience;
}

/** What `cacheOptions` needs of a client's cache options (the lookups' `cache`). */
export interface CacheWithStore {
  readonly store?: SharedStore | undefined;
  readonly storeTimeoutMs?: number | undefined;
}

/** One request per hash across the fleet: `ask()` once for the fleet, else the sealed answer `poll()` finds. */
interface SharedLookups {
  run<T>(
    hash: string,
    ask: () => Promise<T>,
    poll: () => Promise<T | undefined> | undefined,
    signal: AbortLike,
  ): Promise<T>;
  /** Claims the hashes of a batch's window in one call, for the `run()`s that follow (optional: one claim each without it). */
  claimAhead?(hashes: readonly string[]): Promise<void>;
}

/** The part of a fleet `HashScanClient` binds: the gate, the shared store, one request per hash, counters. */
export interface LookupFleet {
  readonly gate: FleetGate;
  readonly lookups: SharedLookups | undefined;
  /** `cache` with the fleet's store as its shared store, unless the application set one. */
  cacheOptions<C extends CacheWithStore>(cache: C): C;
  /** `{ fleet: settings }`, to spread into `toJSON()`. */
  readonly described: { readonly fleet: Record<string, unknown> };
  /** `{ fleet: stats }`, to spread into `stats()`. */
  readonly counted: { readonly fleet: FleetStats };
}

/** The part of a fleet `SmsClient` binds: the gate, where the sending limits count, counters. */
export interface SendFleet {
  readonly gate: FleetGate;
  readonly store: LimitsStore;
  /** Where `sendsLimited` is read from (the client's limits). */
  countLimited(read: () => number): void;
  readonly described: { readonly fleet: Record<string, unknown> };
  readonly counted: { readonly fleet: SmsFleetStats };
}

/** The part of a fleet `OtpVerifier` binds: a link for the codes (the guard takes a sibling) and the key prefix. */
interface VerificationFleet {
  readonly link: RedisLink;
  readonly prefix: string;
}

/** What a plugin holds under its symbol: one factory per client. */
export interface FleetParts {
  lookups(context: FleetContext): LookupFleet;
  sends(context: FleetContext): SendFleet;
  verification(context: { readonly observers: Observers }): VerificationFleet;
}

/** Registered, so that every copy of the package finds the parts of a plugin any copy made. */
const PARTS: unique symbol = Symbol.for('hashscan-sms.fleet-parts') as never;

interface CarriesParts {
  readonly [PARTS]?: unknown;
}

/** A plugin carrying `parts` (hidden from `util.inspect`, `JSON.stringify` and spreading). */
export function fleetPlugin(parts: FleetParts): FleetPlugin {
  const plugin = { kind: 'redis' as const };
  Object.defineProperty(plugin, PARTS, { value: parts, enumerable: false });
  return Object.freeze(plugin);
}

/** The parts of a plugin; `undefined` for anything else (the deprecated `{ redis }` form among others). */
function partsOf(value: unknown): FleetParts | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const parts = (value as CarriesParts)[PARTS];
  return isParts(parts) ? parts : undefined;
}

function isParts(value: unknown): value is FleetParts {
  if (typeof value !== 'object' || value === null) return false;
  const parts = value as Partial<Record<keyof FleetParts, unknown>>;
  return (
    typeof parts.lookups === 'function' && typeof parts.sends === 'function' && typeof parts.verification === 'function'
  );
}

/** Makes a plugin of the deprecated `fleet: { redis }` form; installed by the root entry. */
export type LegacyFleetFactory = (options: FleetOptions) => FleetPlugin;

let legacyFleet: LegacyFleetFactory | undefined;

/**
 * Lets the clients take the deprecated `fleet: { redis }` form: the root
 * entry installs the factory, so the client rooms never import `fleet/` and
 * a bundle of the clients' own modules carries no fleet code.
 */
export function installLegacyFleet(factory: LegacyFleetFactory): void {
  legacyFleet = factory;
}

/** A client's `fleet` option as the plugin's parts: a plugin, or the deprecated form; none without it. */
export function fleetParts(option: FleetPlugin | FleetOptions | undefined): FleetParts | undefined {
  if (option === undefined) return undefined;
  const parts = partsOf(option);
  if (parts !== undefined) return parts;
  if (legacyFleet === undefined) {
    throw new ConfigurationError(
      'fleet',
      "must be made by redisFleet() of 'hashscan-sms/fleet' (the { redis } form needs the 'hashscan-sms' entry)",
    );
  }
  // Not a plugin, so the plain form (or anything else): the factory checks it, as the clients did.
  const made = partsOf(legacyFleet(option as FleetOptions));
  if (made === undefined) throw new ConfigurationError('fleet', 'is not a fleet');
  return made;
}
