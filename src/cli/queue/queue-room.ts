/**
 * Batches across machines on BullMQ: the producer (`lookup --queue`), the
 * worker command, and what both agree on (this file: queue and key names,
 * the job and the per-line result, each validated when read back). This
 * room may import the CLI's own modules and the package's public API; bullmq
 * and ioredis are optional peers loaded only here (see `load.ts`).
 */
import { z } from 'zod';

/** The BullMQ queue every producer and worker of a Redis shares. */
export const QUEUE_NAME = 'lookup';
/** BullMQ's key prefix, and the start of this package's own run keys. */
export const QUEUE_PREFIX = 'hashscan-sms:queue';
/** Lines per chunk job unless `--chunk-size` says otherwise. */
export const DEFAULT_CHUNK_SIZE = 500;
/** How long a run's results and jobs are kept after they were written, so a re-run prints without asking again. */
export const RUN_TTL_MS = 7 * 24 * 3_600_000;

/** A run id: what goes into job ids and keys (no `:`, which BullMQ refuses in ids). */
export const RUN_ID = /^[A-Za-z0-9_.-]{1,64}$/;

export const chunkJobId = (runId: string, chunk: number): string => `${runId}-${chunk}`;
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
  chunk: z.number().int().nonnegative(),
  lines: z.array(jobLine).max(100_000),
});
export type ChunkJob = z.infer<typeof chunkJob>;

/** What a run is, as the first producer recorded it: a second producer must bring the same input. */
export const runMeta = z.object({
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  lines: z.number().int().nonnegative(),
  chunks: z.number().int().nonnegative(),
});
export type RunMeta = z.infer<typeof runMeta>;

/** The result of one line, as a worker recorded it (`HSETNX`: the first one recorded wins). */
export const lineResult = z.discriminatedUnion('verdict', [
  z.object({
    verdict: z.literal('malicious'),
    hash: z.string(),
    name: z.string().optional(),
    source: z.string().optional(),
  }),
  z.object({ verdict: z.literal('not_detected'), hash: z.string(), name: z.string().optional() }),
  z.object({
    verdict: z.literal('error'),
    hash: z.string(),
    name: z.string().optional(),
    code: z.string().max(64),
    message: z.string().max(2_048),
  }),
]);
export type LineResult = z.infer<typeof lineResult>;
