import { READ_MANY, type ReadsMany } from '../store/read-many.js';
import type { RedisLink } from './redis-link.js';

/** The store contract of the lookups' shared cache (`cache.store`: Keyv-compatible), as the fleet provides it. */
export interface FleetStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: string, ttl?: number): Promise<unknown>;
  delete(key: string): Promise<unknown>;
}

/**
 * The fleet's Redis as the lookups' shared cache store (`cache.store`), when
 * the application sets none (with `MGET` for a batch's window of hashes): the sealed entries the fleet's single request
 * per hash hands from one replica to the others. Calls go straight to the
 * client; the cache bounds and backs off on its own.
 */
export function redisSharedStore(link: RedisLink, keyPrefix: string): FleetStore & ReadsMany {
  const prefix = `${keyPrefix}:cache:`;
  return {
    get: (key) => link.raw(['GET', prefix + key]),
    // A batch's window of hashes in one command (see `store/read-many.ts`).
    [READ_MANY]: (keys) => link.raw(['MGET', ...keys.map((key) => prefix + key)]),
    set: (key, value, ttl) =>
      link.raw(
        ttl === undefined
          ? ['SET', prefix + key, value]
          : ['SET', prefix + key, value, 'PX', String(Math.max(1, Math.ceil(ttl)))],
      ),
    delete: (key) => link.raw(['DEL', prefix + key]),
  };
}
