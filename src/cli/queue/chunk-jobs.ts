import type { TextHashLine as HashLine } from '../hash-lines.js';
import { type ChunkJob, chunkJob, chunkJobId, RUN_TTL_MS } from './queue-room.js';

/*
 * The chunk jobs of a run: how the producer adds them, and how it tells its
 * own from one someone else put under the same id (a job is the producer's
 * when it carries this run's nonce, this producer's key id and exactly the
 * input's lines of that chunk).
 */

/** What the producer needs of a BullMQ queue. */
export interface JobQueue {
  addBulk(jobs: Array<{ name: string; data: ChunkJob; opts: Record<string, unknown> }>): Promise<unknown>;
  getJob(id: string): Promise<StoredJob | undefined>;
}

/** A job as read back from Redis: anything may be in it. */
export interface StoredJob {
  readonly data: unknown;
  readonly failedReason?: string | undefined;
  getState(): Promise<string>;
}

/** Who the run's jobs are for: its id, nonce and the producer's key id. */
export interface RunStamp {
  readonly runId: string;
  readonly nonce: string;
  readonly keyId: string;
}

/** The job of one chunk, generation `generation`. */
export function chunkJobOf(
  stamp: RunStamp,
  chunk: number,
  lines: readonly HashLine[],
  generation: number,
): { name: string; data: ChunkJob; opts: Record<string, unknown> } {
  return {
    name: 'chunk',
    data: {
      runId: stamp.runId,
      nonce: stamp.nonce,
      keyId: stamp.keyId,
      chunk,
      lines: lines.map((line) => ({
        line: line.line,
        hash: line.hash,
        ...(line.name === undefined ? {} : { name: line.name }),
      })),
    },
    opts: {
      jobId: chunkJobId(stamp.runId, chunk, generation),
      attempts: 5,
      backoff: { type: 'exponential', delay: 1_000 },
      removeOnComplete: { age: RUN_TTL_MS / 1_000 },
      removeOnFail: { age: RUN_TTL_MS / 1_000 },
    },
  };
}

/**
 * Adds the first-generation jobs of the chunks from `from` on, a batch at a
 * time; a job whose id exists already is left as it is (a re-run never
 * duplicates). Returns how many chunks the input has.
 */
export async function enqueueChunks(
  queue: JobQueue,
  stamp: RunStamp,
  chunks: AsyncIterable<HashLine[]>,
  from = 0,
): Promise<number> {
  let chunk = 0;
  let batch: Array<{ name: string; data: ChunkJob; opts: Record<string, unknown> }> = [];
  const flush = async (): Promise<void> => {
    if (batch.length > 0) await queue.addBulk(batch);
    batch = [];
  };
  for await (const lines of chunks) {
    if (chunk >= from) batch.push(chunkJobOf(stamp, chunk, lines, 0));
    chunk += 1;
    if (batch.length === 50) await flush();
  }
  await flush();
  return chunk;
}

/** Whether a stored job is the producer's own for this chunk. */
export function isOwnJob(data: unknown, stamp: RunStamp, chunk: number, lines: readonly HashLine[]): boolean {
  const parsed = chunkJob.safeParse(data);
  if (!parsed.success) return false;
  const job = parsed.data;
  return (
    job.runId === stamp.runId &&
    job.nonce === stamp.nonce &&
    job.keyId === stamp.keyId &&
    job.chunk === chunk &&
    job.lines.length === lines.length &&
    job.lines.every((line, i) => line.line === lines[i]?.line && line.hash === lines[i]?.hash)
  );
}
