import { lookupWait, type RedisFleetOptions, resolveFleet } from '../fleet-plugin/fleet-options.js';
import { type FleetPlugin, fleetPlugin } from '../fleet-plugin/fleet-plugin.js';
import { RedisLink, redisKind } from '../redis/redis-link.js';
import { Fleet } from './fleet.js';
import { SmsFleet } from './sms-fleet.js';

/*
 * The fleet as a plugin: one object the clients take as `fleet`, each binding
 * its own part (and its own bounded link) to its own context.
 */

/**
 * State shared by every replica of a service through the application's Redis,
 * as a plugin for the clients' `fleet` option: for `HashScanClient` one `429`
 * pause, one `rateLimit` quota, the shared cache and one request per hash; for
 * `SmsClient` the pause, the quota and the sending limits (`limits`); for
 * `OtpVerifier` the codes, their attempts and the pumping guard. Every feature
 * fails open (docs/shared-redis-trust-model.md). The options are checked here;
 * `redis` is read, never connected, closed or reconfigured.
 *
 * @throws {ConfigurationError} for an invalid option.
 * @example
 * ```ts
 * import { createClient } from 'redis'
 * import { redisFleet } from 'hashscan-sms/fleet'
 * const redis = await createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true }).connect()
 * const fleet = redisFleet({ redis, prefix: 'scanner:prod' })
 * const client = new HashScanClient({ rateLimit: { requestsPerSecond: 50 }, fleet })
 * ```
 */
export function redisFleet(options: RedisFleetOptions): FleetPlugin {
  redisKind(resolveFleet(options).redis);
  lookupWait(options.lookupWaitMs);
  return pluginOf({ ...options });
}

/**
 * The deprecated `fleet: { redis }` form as a plugin: its options read and
 * checked when a client binds it, as before there was a plugin.
 */
export function legacyRedisFleet(options: RedisFleetOptions): FleetPlugin {
  return pluginOf(options);
}

function pluginOf(options: RedisFleetOptions): FleetPlugin {
  return fleetPlugin({
    lookups: (context) => new Fleet(options, { ...context, name: 'hashscan' }),
    sends: (context) => new SmsFleet(options, context),
    verification: ({ observers }) => {
      const fleet = resolveFleet(options);
      const link = new RedisLink(fleet.redis, {
        timeoutMs: fleet.timeoutMs,
        observers,
        name: 'sms',
        use: 'verification',
      });
      return { link, prefix: fleet.prefix };
    },
  });
}
