/**
 * `hashscan-sms/fleet`: state shared by the replicas of a service through
 * the application's Redis, as a plugin the clients take in their `fleet`
 * option.
 *
 * @packageDocumentation
 */

export type { RedisFleetOptions } from '../fleet-plugin/fleet-options.js';
export type { FleetPlugin } from '../fleet-plugin/fleet-plugin.js';
export { redisFleet } from './redis-fleet.js';
