/**
 * `hashscan-sms/fleet`: state shared by the replicas of a service through
 * the application's Redis, as a plugin the clients take in their `fleet`
 * option. The root entry `hashscan-sms` still takes the plain
 * `fleet: { redis }` form, deprecated.
 *
 * @example
 * ```ts
 * import { redisFleet } from 'hashscan-sms/fleet'
 * const fleet = redisFleet({ redis, prefix: 'scanner:prod' })
 * const client = new HashScanClient({ fleet })
 * ```
 *
 * @packageDocumentation
 */

export type { RedisFleetOptions } from '../fleet-plugin/fleet-options.js';
export type { FleetPlugin } from '../fleet-plugin/fleet-plugin.js';
export type {
  FleetRedisClient,
  IoRedisLike,
  IoRedisQueueOption,
  NodeRedisLike,
  NodeRedisQueueOption,
} from '../redis/redis-link.js';
export { redisFleet } from './redis-fleet.js';
