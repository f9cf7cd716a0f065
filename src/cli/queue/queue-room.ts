/**
 * Batches across machines on BullMQ: the producer (`lookup --queue`), the
 * worker command, and what both agree on (this file: queue and key names,
 * the job and the per-line result, each validated when read back). This
 * room may import the CLI's own modules and the package's public API; bullmq
 * and ioredis are optional peers loaded only here (see `load.ts`).
 */
import * as z from 'zod';

/** The BullMQ queue every producer and worker of a Redis shares. */
export const QUEUE_NAME = 'lookup';
/** BullMQ's key prefix, and the start of this package's own run keys. */
export const QUEUE_PREFIX = 'hashscan-sms:queue';
/** Lines per chunk job unless `--chunk-size` says otherwise. */
export const DEFAULT_CHUNK_SIZE = 500;
/** How long a run's results and jobs are kept after they were written, so a re-run prints without asking again. */
export const RUN_TTL_MS = 7 * 24 * 3_600_000;

/** A run's nonce: drawn by its first producer, kept in its sealed record. */
const NONCE = /^[A-Za-z0-9_-]{22}$/;

/** A run id: what goes into job ids and keys (no `:`, which BullMQ refuses in ids). */
export const RUN_ID = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * How long a recorded result counts as fresh by default: the lifetime of a
 * verdict in the client's cache (`cache.ttlMs`). Older, it is asked again.
 */
export const RECORD_MAX_AGE_MS = 300_000;
/** Starts the failed reason of a job a worker refused because its key is not the producer's. */
export const KEY_MISMATCH = 'QUEUE_KEY_MISMATCH';
/** A worker's clock may run this far ahead of the producer's. */
export const CLOCK_SKEW_MS = 60_000;

/**
 * A chunk's job id. The first is the run and the chunk; each time the
 * producer asks a chunk again (its job lost, foreign, or records to ask
 * again) it adds a job of the next generation.
 */
export const chunkJobId = (runId: string, chunk: number, generation = 0): string =>
  generation === 0 ? `${runId}-${chunk}` : `${runId}-${chunk}-g${generation}`;
export const metaKey = (runId: string): string => `${QUEUE_PREFIX}:run:${runId}:meta`;
export const resultsKey = (runId: string, chunk: number): string => `${QUEUE_PREFIX}:run:${runId}:chunk:${chunk}`;

/** One input line of a chunk job. */
const jobLine = z.object({
  line: z.number().int().positive(),
  hash: z.string().max(4_096),
  name: z.string().optional(),
});

/** A chunk job's data. */
export const chunkJob = z.object({
  runId: z.string().regex(RUN_ID),
  /** The run's nonce: part of the key its results are sealed with. */
  nonce: z.string().regex(NONCE),
  /** The id of the producer's key (`seal.ts`): a worker with another one says so instead of sealing. */
  keyId: z.string().max(64),
  chunk: z.number().int().nonnegative(),
  lines: z.array(jobLine).max(100_000),
});
export type ChunkJob = z.infer<typeof chunkJob>;

/** What a run is, as the first producer recorded it: a second producer must bring the same input. */
const runMeta = z.object({
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  lines: z.number().int().nonnegative(),
  chunks: z.number().int().nonnegative(),
});
export type RunInputMeta = z.infer<typeof runMeta>;

/** The run's record, sealed (`seal.ts`): its input, its nonce and when it started (ms since the epoch). */
export const sealedRunMeta = runMeta.extend({
  nonce: z.string().regex(NONCE),
  startedAt: z.number().int().nonnegative(),
});
export type RunMeta = z.infer<typeof sealedRunMeta>;

/** When a result was answered (ms since the epoch, the worker's clock): a record is fresh or asked again. */
const answeredAt = z.number().int().nonnegative();

/** The result of one line, as a worker recorded it (`HSETNX`: the first one recorded wins). */
export const lineResult = z.discriminatedUnion('verdict', [
  z.object({
    verdict: z.literal('malicious'),
    hash: z.string(),
    at: answeredAt,
    name: z.string().optional(),
    source: z.string().optional(),
    /** The service's `first_seen` / `last_seen`, as sent. */
    firstSeen: z.string().max(64).optional(),
    lastSeen: z.string().max(64).optional(),
  }),
  z.object({ verdict: z.literal('not_detected'), hash: z.string(), at: answeredAt, name: z.string().optional() }),
  z.object({
    verdict: z.literal('error'),
    hash: z.string(),
    at: answeredAt,
    name: z.string().optional(),
    code: z.string().max(64),
    message: z.string().max(2_048),
  }),
]);
export type LineResult = z.infer<typeof lineResult>;
