import type { FleetStore } from '../fleet-plugin/fleet-plugin.js';
import type { RedisLink } from '../redis/redis-link.js';

/**
 * The fleet's Redis as the lookups' shared cache store (`cache.store`), when
 * the application sets none: the sealed entries the fleet's single request
 * per hash hands from one replica to the others. Calls go straight to the
 * client; the cache bounds and backs off on its own.
 */
export function redisSharedStore(link: RedisLink, keyPrefix: string): FleetStore {
  const prefix = `${keyPrefix}:cache:`;
  return {
    get: (key) => link.raw(['GET', prefix + key]),
    set: (key, value, ttl) =>
      link.raw(
        ttl === undefined
          ? ['SET', prefix + key, value]
          : ['SET', prefix + key, value, 'PX', String(Math.max(1, Math.ceil(ttl)))],
      ),
    delete: (key) => link.raw(['DEL', prefix + key]),
  };
}
