import type { Redis } from 'ioredis';
import { type DecisionPolicy, decide } from '../../index.js';
import type { CommandContext } from '../command.js';
import type { TextHashLine as HashLine } from '../hash-lines.js';
import { backpressure, type Diagnostics, flushed } from '../io.js';
import { LOOKUP_COLUMNS, LOOKUP_CSV_COLUMNS } from '../lookup-columns.js';
import { createWriter, type Format, type Row } from '../output/index.js';
import { Progress } from '../progress.js';
import { errorCells } from '../scan-row.js';
import { type DecisionTally, describeTally, exitStatus } from '../tally.js';
import { UsageError } from '../usage-error.js';
import { loadBullMq } from './load.js';
import {
  type ChunkJob,
  chunkJobId,
  type LineResult,
  lineResult,
  metaKey,
  QUEUE_NAME,
  QUEUE_PREFIX,
  RUN_ID,
  RUN_TTL_MS,
  type RunMeta,
  resultsKey,
  runMeta,
} from './queue-room.js';
import { connectQueue, EXIT_UNAVAILABLE, redisUrl } from './redis-connection.js';
import { openRunInput } from './run-input.js';
import { openRecord, runKey } from './seal.js';

/** What `lookup --queue` was given. */
export interface QueuedLookup {
  readonly queue: string;
  readonly runId: string | undefined;
  readonly chunkSize: number;
  readonly input: string | undefined;
  readonly positionals: readonly string[];
  readonly format: Format;
  readonly failOn: 'review' | 'block';
  readonly policy: DecisionPolicy;
  readonly quiet: boolean;
  /** Seals and checks the workers' results (see `seal.ts`). */
  readonly secret: string;
}

const POLL_MS = 100;
/** How often a chunk still waited for has its job's state checked (a job that failed for good is reported). */
const STATE_CHECK_MS = 3_000;

/** The row cells of a recorded result: the same as a local run's. */
function cellsOf(result: LineResult, policy: DecisionPolicy): Row {
  const decision = decide(result, policy);
  if (result.verdict === 'malicious') {
    return { verdict: 'malicious', decision, source: result.source, detail: result.source ?? 'flagged' };
  }
  if (result.verdict === 'not_detected') return { verdict: 'not_detected', decision };
  return errorCells({ code: result.code, message: result.message }, decision);
}

/** Records the run, or checks that an earlier producer of the same run id read the same input. */
async function claimRun(redis: Redis, runId: string, meta: RunMeta): Promise<'new' | 'resumed'> {
  const created = await redis.set(metaKey(runId), JSON.stringify(meta), 'PX', RUN_TTL_MS, 'NX');
  if (created === 'OK') return 'new';
  let earlier: RunMeta | undefined;
  try {
    const parsed = runMeta.safeParse(JSON.parse((await redis.get(metaKey(runId))) ?? 'null'));
    earlier = parsed.success ? parsed.data : undefined;
  } catch {
    earlier = undefined;
  }
  if (earlier === undefined || earlier.digest !== meta.digest || earlier.lines !== meta.lines) {
    throw new UsageError(
      `lookup: run ${runId} was started with another input (or its record is unreadable): use another --run-id`,
    );
  }
  return 'resumed';
}

/** `lookup --queue`: enqueue the input in chunks, wait for the workers, print every line once, in order. */
export async function runQueuedLookup(
  options: QueuedLookup,
  diagnostics: Diagnostics,
  { io, signal }: CommandContext,
): Promise<number> {
  const url = redisUrl(options.queue, '--queue', diagnostics);
  if (options.runId !== undefined && !RUN_ID.test(options.runId)) {
    throw new UsageError('--run-id must be 1 to 64 letters, digits, ".", "_" or "-"');
  }
  const { Queue } = await loadBullMq('--queue');
  const input = await openRunInput(options, io.stdin);
  const { meta } = input;
  const runId = options.runId ?? meta.digest.slice(0, 32);
  const key = runKey(options.secret, runId);
  const redis = await connectQueue(url, diagnostics);
  if (redis === undefined) {
    await input.close();
    return EXIT_UNAVAILABLE;
  }
  const queue = new Queue(QUEUE_NAME, { connection: redis, prefix: QUEUE_PREFIX });
  const progress = new Progress(io.err, io.err.isTTY === true && !options.quiet, false);
  progress.counters.total = meta.lines;
  const tally: DecisionTally = { allow: 0, block: 0, review: 0 };
  const writer = createWriter(
    options.format,
    options.format === 'csv' ? LOOKUP_CSV_COLUMNS : LOOKUP_COLUMNS,
    io.out,
    io.env,
  );
  try {
    const state = await claimRun(redis, runId, meta);
    if (!options.quiet) {
      diagnostics.line(
        `hashscan-sms: run ${runId}: ${state === 'new' ? 'queued' : 'resuming'} ${meta.lines} lines in ${meta.chunks} chunks`,
      );
    }
    const chunks = await enqueue(queue, runId, input.chunks());
    // The input is read a third time, chunk by chunk, to print each line with its own hash: a result is taken
    // only for the hash the input has on that line.
    let chunk = 0;
    for await (const lines of input.chunks()) {
      if (signal.aborted || chunk >= chunks) break;
      const rows = await waitForChunk(redis, queue, key, { runId, chunk, lines }, signal);
      if (rows === undefined) break;
      for (const { line, result } of rows) {
        const cells = cellsOf(result, options.policy);
        tally[cells.decision as keyof DecisionTally] += 1;
        progress.counters.looked += 1;
        if (result.verdict === 'error') progress.counters.errors += 1;
        progress.clear();
        writer.write({
          line: line.line,
          hash: result.hash,
          // The input's own name (never a recorded one), its exact bytes too when it is not UTF-8, as a local run prints it.
          ...(line.name === undefined ? {} : { name: line.name }),
          ...(line.nameBase64 === undefined ? {} : { nameBase64: line.nameBase64 }),
          ...cells,
        });
      }
      await backpressure(io.out);
      chunk += 1;
    }
  } finally {
    progress.stop();
    writer.end();
    await flushed(io.out);
    await queue.close();
    redis.disconnect();
    await input.close();
  }
  if (signal.aborted) return 130;
  if (!options.quiet) diagnostics.line(`hashscan-sms: run ${runId}: ${describeTally(tally, 'hash')}`);
  return exitStatus(tally, options.failOn);
}

/**
 * Adds the chunk jobs, a batch at a time; their ids come from the run and the
 * chunk, so adding one that exists already is a no-op (a re-run never
 * duplicates). Returns how many chunks there are.
 */
async function enqueue(
  queue: { addBulk(jobs: Array<{ name: string; data: ChunkJob; opts: Record<string, unknown> }>): Promise<unknown> },
  runId: string,
  chunks: AsyncIterable<HashLine[]>,
): Promise<number> {
  let chunk = 0;
  let batch: Array<{ name: string; data: ChunkJob; opts: Record<string, unknown> }> = [];
  const flush = async (): Promise<void> => {
    if (batch.length > 0) await queue.addBulk(batch);
    batch = [];
  };
  for await (const lines of chunks) {
    batch.push({
      name: 'chunk',
      data: { runId, chunk, lines: lines.map((line) => ({ ...line })) },
      opts: {
        jobId: chunkJobId(runId, chunk),
        attempts: 5,
        backoff: { type: 'exponential', delay: 1_000 },
        removeOnComplete: { age: RUN_TTL_MS / 1_000 },
        removeOnFail: { age: RUN_TTL_MS / 1_000 },
      },
    });
    chunk += 1;
    if (batch.length === 50) await flush();
  }
  await flush();
  return chunk;
}

/** One printed line: the input's line and its result. */
interface PrintedLine {
  readonly line: HashLine;
  readonly result: LineResult;
}

function errorResult(line: HashLine, code: string, message: string): LineResult {
  return { verdict: 'error', hash: line.hash, code, message };
}

/**
 * The results of one chunk's input `lines`, in order, once all are recorded
 * (or its job failed for good); `undefined` when aborted. A line without a
 * record that verifies, for its own hash, is an error row (review), never clean.
 */
async function waitForChunk(
  redis: Redis,
  queue: { getJob(id: string): Promise<{ getState(): Promise<string> } | undefined> },
  key: Buffer,
  { runId, chunk, lines }: { readonly runId: string; readonly chunk: number; readonly lines: readonly HashLine[] },
  signal: AbortSignal,
): Promise<PrintedLine[] | undefined> {
  const results = resultsKey(runId, chunk);
  let checkedAt = performance.now();
  for (;;) {
    if (signal.aborted) return undefined;
    if ((await redis.hlen(results)) >= lines.length) break;
    if (performance.now() - checkedAt > STATE_CHECK_MS) {
      checkedAt = performance.now();
      if ((await (await queue.getJob(chunkJobId(runId, chunk)))?.getState()) === 'failed') break;
    }
    await new Promise((wake) => setTimeout(wake, POLL_MS));
  }
  const stored = await redis.hmget(results, ...lines.map((line) => String(line.line)));
  return lines.map((line, index) => {
    const value = stored[index];
    if (value === null || value === undefined) {
      return {
        line,
        result: errorResult(line, 'QUEUE_JOB_FAILED', 'the chunk job of this line failed for good on the workers'),
      };
    }
    const json = openRecord(key, chunk, line.line, value);
    let parsed: ReturnType<typeof lineResult.safeParse> | undefined;
    try {
      parsed = json === undefined ? undefined : lineResult.safeParse(JSON.parse(json));
    } catch {
      parsed = undefined;
    }
    if (parsed?.success !== true || parsed.data.hash !== line.hash) {
      return {
        line,
        result: errorResult(line, 'QUEUE_BAD_RECORD', 'the recorded result does not verify or is for another hash'),
      };
    }
    // A recorded name is never printed: the input's own is, where the row is written.
    const { name: _recorded, ...answer } = parsed.data;
    return { line, result: answer };
  });
}
