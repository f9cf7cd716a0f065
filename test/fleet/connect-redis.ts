import { Redis } from 'ioredis';
import { createClient } from 'redis';
import type { FleetRedisClient } from '../../src/redis/redis-link.js';

/** A replica's own Redis client, node-redis or ioredis, with the offline queue off as the docs ask, connected. */
export async function connectRedis(
  lib: 'node-redis' | 'ioredis',
  url: string,
): Promise<{ redis: FleetRedisClient; close: () => Promise<void> }> {
  if (lib === 'ioredis') {
    const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true });
    redis.on('error', () => {});
    await redis.connect();
    return { redis, close: async () => void redis.disconnect() };
  }
  const redis = createClient({ url, disableOfflineQueue: true });
  redis.on('error', () => {});
  await redis.connect();
  return { redis, close: async () => void (await redis.destroy()) };
}
