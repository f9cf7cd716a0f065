import type { Redis } from 'ioredis';
import { errorCode } from '../../util/error-code.js';
import type { TextHashLine as HashLine } from '../hash-lines.js';
import type { Diagnostics } from '../io.js';
import { UsageError } from '../usage-error.js';
import { chunkJobOf, isOwnJob, type JobQueue, type RunStamp, type StoredJob } from './chunk-jobs.js';
import { chunkJobId, KEY_MISMATCH, type LineResult, type RunMeta, resultsKey } from './queue-room.js';
import { checkRecords, REFUSALS, type Refusal } from './records.js';

/*
 * The producer's wait for one chunk. It reads the chunk's records once all
 * are there, and asks a chunk again (a job of the next generation) when its
 * records cannot be printed (stale, another key, forged), when its job is
 * not the producer's, or when its job completed and its records are gone.
 * Every few seconds it checks the chunk's job: a job Redis lost (a restart)
 * is enqueued again with every chunk after it. While Redis does not answer
 * it says so, and past `downMs` the run stops (`RedisLost`): never a silent
 * wait.
 */

const POLL_MS = 100;
/** How often the job of a chunk still waited for is checked. */
const STATE_CHECK_MS = 2_000;
/** How many times one chunk is asked, at most (then its unprintable lines are error rows). */
const MAX_ASKS = 4;
/** How long Redis may not answer before a run stops. */
export const REDIS_DOWN_MS = 30_000;
/** A chunk waiting this long without a worker taking it is said once. */
const NO_WORKER_MS = 30_000;

/** Redis did not answer for too long: the run stops. */
export class RedisLost extends Error {
  constructor(readonly code: string) {
    super(`Redis does not answer (${code})`);
  }
}

/** Redis calls that may fail: while Redis does not answer, said once; past `downMs`, `RedisLost`. */
export class RedisWatch {
  #downSince: number | undefined;
  /** Set when Redis answers again after not answering (or its connection is ready again): check at once. */
  recovered = false;
  readonly #said = new Set<string>();

  constructor(
    readonly diagnostics: Diagnostics,
    readonly runId: string,
    readonly downMs: number,
  ) {}

  /** Says `text` once per run. */
  once(text: string): void {
    if (this.#said.has(text)) return;
    this.#said.add(text);
    this.diagnostics.line(`hashscan-sms: run ${this.runId}: ${text}`);
  }

  /** The call's value, tried again while Redis does not answer (`RedisLost` past `downMs`). */
  async until<T>(run: () => Promise<T>): Promise<T> {
    for (;;) {
      const answer = await this.call(async () => ({ value: await run() }));
      if (answer !== undefined) return answer.value;
      await sleep(POLL_MS * 5);
    }
  }

  /** The call's value, or `undefined` when Redis did not answer it (a usage error is thrown as is). */
  async call<T>(run: () => Promise<T>): Promise<T | undefined> {
    try {
      const value = await run();
      if (this.#downSince !== undefined) {
        this.#downSince = undefined;
        this.recovered = true;
        this.diagnostics.line(`hashscan-sms: run ${this.runId}: Redis answers again`);
      }
      return value;
    } catch (error) {
      if (error instanceof UsageError) throw error;
      const now = performance.now();
      if (this.#downSince === undefined) {
        this.#downSince = now;
        this.diagnostics.line(
          `hashscan-sms: run ${this.runId}: Redis does not answer (${errorCode(error)}); waiting up to ${Math.round(this.downMs / 1000)} s`,
        );
      }
      if (now - this.#downSince > this.downMs) throw new RedisLost(errorCode(error));
      return undefined;
    }
  }
}

/** What waiting for a run's chunks needs. */
export interface ChunkWaitContext {
  readonly redis: Redis;
  readonly queue: JobQueue;
  readonly watch: RedisWatch;
  readonly stamp: RunStamp;
  readonly meta: RunMeta;
  /** The run's key (`seal.ts`). */
  readonly key: Buffer;
  readonly maxAgeMs: number;
  readonly signal: AbortSignal;
  /** Redis lost the run (a restart): records it again and enqueues the chunks from `chunk` on. */
  readonly restore: (chunk: number) => Promise<void>;
}

/** One printed line: the input's line and its result. */
export interface PrintedLine {
  readonly line: HashLine;
  readonly result: LineResult;
}

/**
 * A chunk's job: the job, `gone` (Redis has none under that id) or
 * `unreadable` (something BullMQ cannot read is stored under it); throws
 * when Redis does not answer.
 */
async function readJob(
  redis: Redis,
  queue: JobQueue,
  id: string,
): Promise<{ readonly job: StoredJob | 'gone' | 'unreadable' }> {
  try {
    return { job: (await queue.getJob(id)) ?? 'gone' };
  } catch (error) {
    await redis.ping(); // throws when Redis is the cause
    if (error instanceof Error) return { job: 'unreadable' };
    throw error;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((wake) => setTimeout(wake, ms));

/**
 * The results of one chunk's input `lines`, in order, once all are recorded
 * and printable (or asked `MAX_ASKS` times, or its job failed for good);
 * `undefined` when aborted. A line without a printable record is an error
 * row (review), never clean.
 */
export async function waitForChunk(
  context: ChunkWaitContext,
  chunk: number,
  lines: readonly HashLine[],
): Promise<PrintedLine[] | undefined> {
  const { redis, queue, watch, stamp, signal } = context;
  const results = resultsKey(stamp.runId, chunk);
  const fields = lines.map((line) => String(line.line));
  const since = performance.now();
  let generation = 0;
  let asks = 1;
  let checkedAt = since;
  const askAgain = async (why: string): Promise<void> => {
    asks += 1;
    generation += 1;
    watch.once(why);
    await watch.call(() => queue.addBulk([chunkJobOf(stamp, chunk, lines, generation)]));
  };
  /** The chunk's rows; `undefined` when Redis did not answer, or (not `final`) when lines were asked again. */
  const read = async (missing: Refusal, final: boolean): Promise<PrintedLine[] | undefined> => {
    const stored = await watch.call(() => redis.hmget(results, ...fields));
    if (stored === undefined) return undefined;
    const fresh = { startedAt: context.meta.startedAt, maxAgeMs: context.maxAgeMs, now: Date.now() };
    const checked = checkRecords(context.key, stamp.keyId, chunk, lines, stored, fresh, missing);
    if (!final) {
      // Records there that cannot be printed are asked again; lines not recorded yet are waited for.
      const present = checked.flatMap((each, i) => ('refused' in each && stored[i] !== null ? [i] : []));
      if (present.length > 0 && asks < MAX_ASKS) {
        const first = checked[present[0] as number] as { refused: Refusal };
        if ((await watch.call(() => redis.hdel(results, ...present.map((i) => fields[i] as string)))) === undefined) {
          return undefined;
        }
        await askAgain(`records of chunk ${chunk} asked again (${first.refused.code}: ${first.refused.message})`);
        return undefined;
      }
      if (stored.includes(null)) return undefined;
    }
    return lines.map((line, i) => {
      const each = checked[i];
      if (each !== undefined && 'result' in each) return { line, result: each.result };
      const { code, message } = (each as { refused: Refusal }).refused;
      return { line, result: { verdict: 'error', hash: line.hash, at: 0, code, message } };
    });
  };
  for (;;) {
    if (signal.aborted) return undefined;
    const count = await watch.call(() => redis.hlen(results));
    if (count !== undefined && count >= lines.length) {
      const rows = await read(REFUSALS.failed, false);
      if (rows !== undefined) return rows;
    }
    if (watch.recovered || performance.now() - checkedAt > STATE_CHECK_MS) {
      watch.recovered = false;
      checkedAt = performance.now();
      const found = await watch.call(() => readJob(redis, queue, chunkJobId(stamp.runId, chunk, generation)));
      if (found === undefined) {
        // Redis did not answer: the watch said so.
      } else if (found.job === 'gone') {
        watch.once(`Redis lost the run's jobs (restarted?): chunks from ${chunk} on enqueued again`);
        await watch.call(() => context.restore(chunk));
        if (generation > 0) await watch.call(() => queue.addBulk([chunkJobOf(stamp, chunk, lines, generation)]));
      } else if (found.job === 'unreadable' || !isOwnJob(found.job.data, stamp, chunk, lines)) {
        if (asks < MAX_ASKS) await askAgain(`the job of chunk ${chunk} in Redis is not this run's: enqueued again`);
        else return await finalRead(read, REFUSALS.failed);
      } else {
        const { job } = found;
        const state = await watch.call(() => job.getState());
        const refusedByWorker = job.failedReason?.startsWith(KEY_MISMATCH) === true;
        if (refusedByWorker) {
          watch.once(
            `a worker refused chunk ${chunk}: its HASHSCAN_QUEUE_SECRET (else its API key) is not this producer's`,
          );
        }
        if (state === 'failed')
          return await finalRead(read, refusedByWorker ? REFUSALS.refusedByWorker : REFUSALS.failed);
        // Completed, yet lines without a record (read after the state: a job completes once its records are written).
        if (
          state === 'completed' &&
          (await watch.call(() => redis.hmget(results, ...fields)))?.includes(null) === true
        ) {
          if (asks < MAX_ASKS) await askAgain(`results of chunk ${chunk} were lost from Redis: asked again`);
          else return await finalRead(read, REFUSALS.lost);
        }
        if ((state === 'waiting' || state === 'prioritized') && performance.now() - since > NO_WORKER_MS) {
          watch.once(`no worker has taken chunk ${chunk} for ${NO_WORKER_MS / 1000} s: is a worker running?`);
        }
      }
    }
    await sleep(POLL_MS);
  }
}

/** The last read of a chunk that will get no more records (retried while Redis does not answer). */
async function finalRead(
  read: (missing: Refusal, final: true) => Promise<PrintedLine[] | undefined>,
  missing: Refusal,
): Promise<PrintedLine[] | undefined> {
  for (;;) {
    const rows = await read(missing, true);
    if (rows !== undefined) return rows;
    await sleep(POLL_MS);
  }
}
