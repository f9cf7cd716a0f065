import { durationLabel } from '../../config/duration.js';
import { type FleetPlugin, redisFleet } from '../../fleet/index.js';
import { errorCode } from '../../util/error-code.js';
import type { Diagnostics } from '../io.js';
import { UsageError } from '../usage-error.js';
import { connectRedis, redisUrl } from './redis-connection.js';

/** `--redis URL` of `scan` and `lookup`: the shared cache and fleet coordination for a local run. */
export const REDIS_OPTION = { redis: { type: 'string' }, 'redis-timeout': { type: 'string' } } as const;

/**
 * The library's own default (`redisFleet({ timeoutMs })`) suits a Redis beside the
 * process; a Redis further away needs `--redis-timeout`, or every call misses.
 */
const DEFAULT_REDIS_TIMEOUT_MS = 50;
/** What `--redis-timeout` accepts. */
export const REDIS_TIMEOUT_RANGE = { minMs: 1, maxMs: 10_000 } as const;

export const REDIS_TIMEOUT_HELP = `  --redis-timeout D     longest wait for one call of the shared cache and fleet to
                        Redis (${durationLabel(REDIS_TIMEOUT_RANGE.minMs)} to ${durationLabel(REDIS_TIMEOUT_RANGE.maxMs)}; default ${durationLabel(DEFAULT_REDIS_TIMEOUT_MS)}): a slower call counts
                        as a miss and the lookup goes on without it; raise it for
                        a Redis across a network`;

export const REDIS_HELP = `  --redis URL           share verdicts, the 429 pause, the rate limit and in-flight
                        lookups with other runs and replicas through this Redis
                        (redis:// or rediss://; needs the optional package ioredis).
                        Redis down: the run goes on alone, and says so once
${REDIS_TIMEOUT_HELP}`;

/** The fleet of a local run (`--redis`, `--redis-timeout`), or none; a Redis that does not answer leaves the run on its own (it says so). */
export async function openFleet(
  value: string | undefined,
  timeoutMs: number | undefined,
  diagnostics: Diagnostics,
): Promise<{ fleet: FleetPlugin | undefined; close(): Promise<void> }> {
  if (value === undefined) {
    if (timeoutMs !== undefined) throw new UsageError('--redis-timeout applies to --redis URL');
    return { fleet: undefined, close: async () => {} };
  }
  const url = redisUrl(value, '--redis', diagnostics);
  let redis: Awaited<ReturnType<typeof connectRedis>>;
  try {
    redis = await connectRedis(url, '--redis', 'fleet');
  } catch (error) {
    if (error instanceof UsageError) throw error; // ioredis is not installed
    diagnostics.line(
      `hashscan-sms: --redis: no answer from Redis (${errorCode(error)}); running without the shared cache and fleet`,
    );
    return { fleet: undefined, close: async () => {} };
  }
  return {
    fleet: redisFleet({ redis, timeoutMs: timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS }),
    close: async () => {
      // QUIT goes after the commands still in the auto-pipeline (cache entries of the last answers); bounded.
      const quit = redis.quit().catch(() => undefined);
      await Promise.race([quit, new Promise((wake) => setTimeout(wake, 1_000).unref())]);
      redis.disconnect();
    },
  };
}
