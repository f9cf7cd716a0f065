import type { Redis } from 'ioredis';
import { errorCode } from '../../util/error-code.js';
import type { Diagnostics } from '../io.js';
import { UsageError } from '../usage-error.js';
import { loadIoRedis } from './load.js';

/** Exit status when the Redis a command cannot do without does not answer (`EX_UNAVAILABLE` of sysexits.h). */
export const EXIT_UNAVAILABLE = 69;

/** Checks a `redis://` or `rediss://` URL; its password is masked in every message from now on. */
export function redisUrl(value: string, flag: string, diagnostics: Diagnostics): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} must be a redis:// or rediss:// URL`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new UsageError(`${flag} must be a redis:// or rediss:// URL, got ${url.protocol}`);
  }
  diagnostics.secrets.add(decodeURIComponent(url.password));
  diagnostics.secrets.add(url.password);
  return value;
}

/** How long one command of the producer may take before it counts as Redis not answering. */
const PRODUCER_COMMAND_MS = 5_000;

/**
 * An ioredis connection. The fleet's and the producer's fail fast while
 * Redis is down (no offline queue: nothing is replayed on reconnection; the
 * producer's commands also time out, so that a Redis that stopped answering
 * is seen, never waited for in silence). A worker's connection instead waits
 * for Redis as long as it takes (`maxRetriesPerRequest: null`, as BullMQ
 * requires for workers).
 */
export async function connectRedis(
  url: string,
  flag: string,
  use: 'fleet' | 'queue' | 'producer',
  connectTimeoutMs = 5_000,
): Promise<Redis> {
  const { Redis } = await loadIoRedis(flag);
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: connectTimeoutMs,
    ...(use === 'fleet'
      ? // The cache's and the fleet's commands of one turn go out as one pipeline: a socket write per command was a worker's largest cost.
        { enableOfflineQueue: false, maxRetriesPerRequest: 1, enableAutoPipelining: true }
      : use === 'producer'
        ? { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: PRODUCER_COMMAND_MS }
        : { enableOfflineQueue: true, maxRetriesPerRequest: null }),
  });
  // Errors surface through the commands that fail; an unhandled 'error' event would end the process.
  redis.on('error', () => {});
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  return redis;
}

/** The queue's Redis for a command that cannot do without it, or `undefined` after saying it does not answer. */
export async function connectQueue(
  url: string,
  diagnostics: Diagnostics,
  use: 'queue' | 'producer' = 'queue',
): Promise<Redis | undefined> {
  try {
    return await connectRedis(url, '--queue', use);
  } catch (error) {
    diagnostics.line(`hashscan-sms: --queue: no answer from Redis (${errorCode(error)})`);
    return undefined;
  }
}
