import { positiveMs } from '../config/numbers.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import type { SmsLimitsOptions } from '../limits/limits-options.js';
import type { FleetRedisClient } from '../redis/redis-link.js';

/*
 * The options of a Redis fleet (`redisFleet()` of `hashscan-sms/fleet`), the
 * deprecated `fleet: { redis }` form of the clients, and their checks.
 */

/**
 * Options of `redisFleet()` (`hashscan-sms/fleet`): state shared by every
 * replica of a service through Redis: one `429` pause, one `rateLimit`
 * quota, (lookups) one request per hash, (sends) the sending limits and
 * (verification codes) the codes. Every feature fails open: while Redis is
 * down or slow, each replica behaves as it would without `fleet`, and the log
 * says so once.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis'
 * import { redisFleet } from 'hashscan-sms/fleet'
 * const redis = await createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true }).connect()
 * const fleet = redisFleet({ redis, prefix: 'scanner:prod' })
 * const client = new HashScanClient({ rateLimit: { requestsPerSecond: 50 }, fleet })
 * ```
 */
export interface RedisFleetOptions {
  /**
   * A connected node-redis (v5 or later) or ioredis client that the
   * application owns (and closes). Turn its offline queue off
   * (`disableOfflineQueue: true`, ioredis `enableOfflineQueue: false`) so that
   * an outage fails fast instead of queueing commands to replay later.
   */
  readonly redis: FleetRedisClient;
  /**
   * Start of every key the fleet writes. Replicas with the same prefix share
   * one pause, one quota and their lookups; give each service (or each API
   * key with its own quota) a prefix of its own.
   * @defaultValue `"hashscan-sms"`
   */
  readonly prefix?: string | undefined;
  /**
   * Longest wait for one Redis call, in ms. A slower, failing or absent Redis
   * (three failures within a second, at least half of its calls) or one that
   * replies out of range is left alone, then probed one call at a time (every
   * one to five seconds), and each replica runs on its own meanwhile.
   * @defaultValue 50
   */
  readonly timeoutMs?: number | undefined;
  /**
   * `HashScanClient` only: when another replica is already asking the service
   * about a hash, the longest this one waits for its sealed answer in the
   * shared cache before asking for itself, in ms; `0` turns the fleet-wide
   * single request per hash off. Needs the shared cache (the fleet's Redis
   * serves as `cache.store` unless you set one).
   * @defaultValue 5000
   */
  readonly lookupWaitMs?: number | undefined;
}

/**
 * The `fleet` option as a plain object (the form before `redisFleet()`):
 * the same settings, the same behaviour.
 *
 * @deprecated Pass `fleet: redisFleet({ redis, prefix, timeoutMs })` of `hashscan-sms/fleet`: this form stays
 * for at least one minor release.
 * @example
 * ```ts
 * new OtpVerifier({ sms, templateCode, secret, fleet: redisFleet({ redis }) }) // was: fleet: { redis }
 * ```
 */
export interface FleetOptions {
  /**
   * The application's connected node-redis or ioredis client, its offline queue off.
   * @deprecated Pass `fleet: redisFleet({ redis })` of `hashscan-sms/fleet`: `fleet: { redis }` stays for at
   * least one minor release.
   */
  readonly redis: FleetRedisClient;
  /**
   * Start of every key the fleet writes, as `redisFleet({ prefix })`.
   * @defaultValue `"hashscan-sms"`
   */
  readonly prefix?: string | undefined;
  /**
   * Longest wait for one Redis call in ms, as `redisFleet({ timeoutMs })`.
   * @defaultValue 50
   */
  readonly timeoutMs?: number | undefined;
}

/**
 * The `fleet` option of `HashScanClient` as a plain object: {@link FleetOptions} and `lookupWaitMs`.
 *
 * @deprecated Pass `fleet: redisFleet({ redis, lookupWaitMs })` of `hashscan-sms/fleet`.
 * @example
 * ```ts
 * new HashScanClient({ fleet: redisFleet({ redis, prefix: 'scanner:prod', lookupWaitMs: 3_000 }) })
 * ```
 */
export interface HashScanFleetOptions extends FleetOptions {
  /**
   * Longest wait for another replica's lookup of the same hash in ms (`0`: off), as `redisFleet({ lookupWaitMs })`.
   * @defaultValue 5000
   */
  readonly lookupWaitMs?: number | undefined;
}

/**
 * The `fleet` option of `SmsClient` as a plain object: {@link FleetOptions}, plus the
 * deprecated spelling of the client's `limits`.
 *
 * @deprecated Pass `fleet: redisFleet({ redis })` of `hashscan-sms/fleet`, and `limits` on the client.
 * @example
 * ```ts
 * new SmsClient({ fleet: redisFleet({ redis }), limits: { perRecipient: { perMinute: 1, perHour: 5 } } })
 * ```
 */
export interface SmsFleetOptions extends FleetOptions {
  /**
   * Sending limits, shared by the fleet.
   * @deprecated Set `limits` on the client instead (same shape, same behaviour: with `fleet` they are
   * shared through Redis). Setting both is a configuration error.
   * @defaultValue none
   */
  readonly limits?: SmsLimitsOptions | undefined;
}

/** Fleet settings with defaults filled in. */
export interface ResolvedFleet {
  readonly redis: FleetRedisClient;
  readonly prefix: string;
  readonly timeoutMs: number;
}

const DEFAULT_FLEET_PREFIX = 'hashscan-sms';
const DEFAULT_FLEET_TIMEOUT_MS = 50;
const DEFAULT_LOOKUP_WAIT_MS = 5_000;

/** Checks the common part of `fleet`. */
export function resolveFleet(options: Omit<RedisFleetOptions, 'lookupWaitMs'>): ResolvedFleet {
  if (typeof options !== 'object' || options === null) throw new ConfigurationError('fleet', 'must be an object');
  const prefix = options.prefix ?? DEFAULT_FLEET_PREFIX;
  if (typeof prefix !== 'string' || prefix === '' || prefix.length > 200) {
    throw new ConfigurationError('fleet.prefix', 'must be a non-empty string of at most 200 characters');
  }
  if (options.redis === undefined) throw new ConfigurationError('fleet.redis', 'is required');
  return {
    redis: options.redis,
    prefix,
    timeoutMs: positiveMs(options.timeoutMs, 'fleet.timeoutMs', DEFAULT_FLEET_TIMEOUT_MS),
  };
}

/** `lookupWaitMs`: 0 (off) or a valid wait. */
export function lookupWait(value: unknown): number {
  if (value === 0) return 0;
  return positiveMs(value as number | undefined, 'fleet.lookupWaitMs', DEFAULT_LOOKUP_WAIT_MS);
}
