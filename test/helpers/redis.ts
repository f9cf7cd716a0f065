import { describe, inject } from 'vitest';

/** The Redis of the shared-cache tests (see `test/global-redis.ts`), if any. */
function redisUrl(): string | undefined {
  return inject('redisUrl');
}

/**
 * `describe` for tests that need a real Redis: skipped, loudly, only when
 * there is none (no `REDIS_URL` and no `redis-server` on PATH). In CI
 * `REDIS_URL` is always set, and a missing Redis fails `.ci/run` instead.
 */
export function describeWithRedis(name: string, body: (url: string) => void): void {
  const url = redisUrl();
  if (url === undefined) {
    console.warn(
      `\n*** SKIPPED "${name}": no Redis. Set REDIS_URL or install redis-server (apt-get install redis-server). ***\n`,
    );
    describe.skip(name, () => body(''));
    return;
  }
  describe(name, () => body(url));
}
