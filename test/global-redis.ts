import type { TestProject } from 'vitest/node';
import { hasRedisServer, type RedisServer, startRedisServer } from './helpers/redis-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the Redis the shared-cache tests use: `REDIS_URL`, or one started here. */
    redisUrl: string | undefined;
  }
}

let server: RedisServer | undefined;

/**
 * Gives the shared-cache tests a real Redis: `REDIS_URL` when set (CI sets
 * it), else a throw-away `redis-server` on a free loopback port when one is
 * installed, so that a plain `npm test` covers Redis too. Without either,
 * those tests are skipped and say so.
 */
export async function setup(project: TestProject): Promise<void> {
  let url = process.env.REDIS_URL || undefined;
  if (url === undefined && process.env.HASHSCAN_TEST_REDIS !== 'off' && hasRedisServer()) {
    server = await startRedisServer();
    url = server.url;
  }
  project.provide('redisUrl', url);
}

export async function teardown(): Promise<void> {
  await server?.stop();
}
