import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Diagnostics } from '../io.js';
import { UsageError } from '../usage-error.js';
import { metaKey, RUN_TTL_MS, type RunInputMeta, type RunMeta, sealedRunMeta } from './queue-room.js';
import { metaSealKey, openMeta, sealMeta } from './seal.js';

/*
 * The run's own record in Redis, sealed: its input (a second producer must
 * bring the same), its nonce (part of the key its results are sealed with)
 * and when it started (a result answered before is not this run's). A record
 * that does not verify (another secret, a forgery) is replaced by a new run:
 * no one who writes to Redis can block a run id for good.
 */

function readMeta(key: Buffer, stored: string | null): RunMeta | undefined {
  const json = stored === null ? undefined : openMeta(key, stored);
  if (json === undefined) return undefined;
  try {
    const parsed = sealedRunMeta.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Records a new run, or resumes the one an earlier producer of this run id recorded with the same input. */
export async function claimRun(
  redis: Redis,
  secret: string,
  runId: string,
  input: RunInputMeta,
  diagnostics: Diagnostics,
): Promise<{ readonly meta: RunMeta; readonly state: 'new' | 'resumed' }> {
  const key = metaSealKey(secret, runId);
  const meta: RunMeta = { ...input, nonce: randomBytes(16).toString('base64url'), startedAt: Date.now() };
  const sealed = sealMeta(key, JSON.stringify(meta));
  if ((await redis.set(metaKey(runId), sealed, 'PX', RUN_TTL_MS, 'NX')) === 'OK') return { meta, state: 'new' };
  const earlier = readMeta(key, await redis.get(metaKey(runId)));
  if (earlier === undefined) {
    diagnostics.line(
      `hashscan-sms: run ${runId}: its record in Redis does not verify (another HASHSCAN_QUEUE_SECRET or API key, or written by someone else): the run starts afresh`,
    );
    await redis.set(metaKey(runId), sealed, 'PX', RUN_TTL_MS);
    return { meta, state: 'new' };
  }
  if (earlier.digest !== input.digest || earlier.lines !== input.lines) {
    throw new UsageError(`lookup: run ${runId} was started with another input: use another --run-id`);
  }
  return { meta: earlier, state: 'resumed' };
}

/** Records the run again if Redis lost its record (a restart): the same nonce, the same start. */
export async function recordRunAgain(redis: Redis, secret: string, runId: string, meta: RunMeta): Promise<void> {
  await redis.set(metaKey(runId), sealMeta(metaSealKey(secret, runId), JSON.stringify(meta)), 'PX', RUN_TTL_MS, 'NX');
}
