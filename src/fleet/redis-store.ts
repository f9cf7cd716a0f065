import type { RedisLink } from '../redis/redis-link.js';
import { READ_MANY, type ReadsMany } from '../store/read-many.js';
import type { SharedStore } from '../store/shared-store.js';

/** `SET` of each key (KEYS) to its value and time to live in ms (ARGV: value, ttl, value, ttl…; ttl 0: none). */
const SET_MANY_SCRIPT =
  "for i, k in ipairs(KEYS) do local v, t = ARGV[2 * i - 1], ARGV[2 * i] if t == '0' then redis.call('SET', k, v) else redis.call('SET', k, v, 'PX', t) end end return #KEYS";

/**
 * The cache entries written during one turn of the event loop, sent as one
 * script at its end (`setImmediate`): one command for the answers that
 * arrived together, each caller told when that command is answered.
 */
function batchedWrites(link: RedisLink): (key: string, value: string, ttl: number | undefined) => Promise<unknown> {
  let keys: string[] = [];
  let args: string[] = [];
  let settle: Array<{ resolve(value: unknown): void; reject(error: unknown): void }> = [];
  const flush = (): void => {
    const batch = { keys, args, settle };
    keys = [];
    args = [];
    settle = [];
    link.raw(['EVAL', SET_MANY_SCRIPT, String(batch.keys.length), ...batch.keys, ...batch.args]).then(
      (reply) => {
        for (const each of batch.settle) each.resolve(reply);
      },
      (error: unknown) => {
        for (const each of batch.settle) each.reject(error);
      },
    );
  };
  return (key, value, ttl) =>
    new Promise((resolve, reject) => {
      if (keys.length === 0) setImmediate(flush);
      keys.push(key);
      args.push(value, ttl === undefined ? '0' : String(Math.max(1, Math.ceil(ttl))));
      settle.push({ resolve, reject });
    });
}

/**
 * The fleet's Redis as the lookups' shared cache store (`cache.store`), when
 * the application sets none (with `MGET` for a batch's window of hashes, and
 * the entries of one turn of the event loop written by one script): the sealed entries the fleet's single request
 * per hash hands from one replica to the others. Calls go straight to the
 * client; the cache bounds and backs off on its own.
 */
export function redisSharedStore(link: RedisLink, keyPrefix: string): SharedStore & ReadsMany {
  const prefix = `${keyPrefix}:cache:`;
  const write = batchedWrites(link);
  return {
    get: (key) => link.raw(['GET', prefix + key]),
    // A batch's window of hashes in one command (see `store/read-many.ts`).
    [READ_MANY]: (keys) => link.raw(['MGET', ...keys.map((key) => prefix + key)]),
    set: (key, value, ttl) => write(prefix + key, value, ttl),
    delete: (key) => link.raw(['DEL', prefix + key]),
  };
}
