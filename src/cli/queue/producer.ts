import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { Redis } from 'ioredis';
import { type DecisionPolicy, decide } from '../../index.js';
import type { CommandContext } from '../command.js';
import { type HashLine, openInput, parseHashLine, readHashLines } from '../hash-lines.js';
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
}

const POLL_MS = 100;
/** How often a chunk still waited for has its job's state checked (a job that failed for good is reported). */
const STATE_CHECK_MS = 3_000;

/** The input in chunks, and a digest of every line read (the run's identity). */
async function readChunks(
  options: QueuedLookup,
  stdin: NodeJS.ReadableStream & { isTTY?: boolean },
): Promise<{ chunks: HashLine[][]; meta: RunMeta }> {
  let lines: AsyncIterable<HashLine> | Iterable<HashLine>;
  if (options.positionals.length > 0)
    lines = options.positionals.flatMap((text, i) => parseHashLine(text, i + 1) ?? []);
  else if (options.input !== undefined && options.input !== '-')
    lines = readHashLines(openInput(resolve(options.input)));
  else {
    if (stdin.isTTY === true && options.input === undefined) throw new UsageError('lookup: no hashes to queue');
    lines = readHashLines(stdin);
  }
  const digest = createHash('sha256');
  const chunks: HashLine[][] = [];
  let current: HashLine[] = [];
  let count = 0;
  try {
    for await (const line of lines) {
      digest.update(`${line.line}\t${line.hash}\t${line.name ?? ''}\n`);
      current.push(line);
      count += 1;
      if (current.length === options.chunkSize) {
        chunks.push(current);
        current = [];
      }
    }
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new UsageError(`lookup: cannot read --input ${options.input}: ${typeof code === 'string' ? code : 'error'}`);
  }
  if (current.length > 0) chunks.push(current);
  return { chunks, meta: { digest: digest.digest('hex'), lines: count, chunks: chunks.length } };
}

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
  const { chunks, meta } = await readChunks(options, io.stdin);
  const runId = options.runId ?? meta.digest.slice(0, 32);
  if (!RUN_ID.test(runId)) throw new UsageError('--run-id must be 1 to 64 letters, digits, ".", "_" or "-"');
  const { Queue } = await loadBullMq('--queue');
  const redis = await connectQueue(url, diagnostics);
  if (redis === undefined) return EXIT_UNAVAILABLE;
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
    // Job ids come from the run and the chunk: adding one that exists already is a no-op (a re-run never duplicates).
    for (let start = 0; start < chunks.length; start += 100) {
      await queue.addBulk(
        chunks.slice(start, start + 100).map((lines, offset) => {
          const chunk = start + offset;
          const data: ChunkJob = { runId, chunk, lines: lines.map((line) => ({ ...line })) };
          return {
            name: 'chunk',
            data,
            opts: {
              jobId: chunkJobId(runId, chunk),
              attempts: 5,
              backoff: { type: 'exponential', delay: 1_000 },
              removeOnComplete: { age: RUN_TTL_MS / 1_000 },
              removeOnFail: { age: RUN_TTL_MS / 1_000 },
            },
          };
        }),
      );
    }
    for (let index = 0; index < chunks.length && !signal.aborted; index++) {
      const lines = chunks[index] as HashLine[];
      const results = await waitForChunk(redis, queue, runId, index, lines.length, signal);
      if (results === undefined) break;
      for (const line of lines) {
        const recorded = results.get(line.line);
        const result: LineResult =
          recorded !== undefined && recorded.hash !== line.hash
            ? {
                verdict: 'error',
                hash: line.hash,
                code: 'QUEUE_BAD_RECORD',
                message: 'the recorded result is for another hash',
              }
            : (recorded ?? {
                verdict: 'error',
                hash: line.hash,
                code: 'QUEUE_JOB_FAILED',
                message: 'the chunk job of this line failed for good on the workers',
              });
        const cells = cellsOf(result, options.policy);
        tally[cells.decision as keyof DecisionTally] += 1;
        progress.counters.looked += 1;
        if (result.verdict === 'error') progress.counters.errors += 1;
        progress.clear();
        writer.write({
          line: line.line,
          hash: line.hash,
          ...(line.name === undefined ? {} : { name: line.name }),
          ...cells,
        });
      }
      await backpressure(io.out);
    }
  } finally {
    progress.stop();
    writer.end();
    await flushed(io.out);
    await queue.close();
    redis.disconnect();
  }
  if (signal.aborted) return 130;
  if (!options.quiet) diagnostics.line(`hashscan-sms: run ${runId}: ${describeTally(tally, 'hash')}`);
  return exitStatus(tally, options.failOn);
}

/** The recorded results of one chunk once all are in (or its job failed for good); `undefined` when aborted. */
async function waitForChunk(
  redis: Redis,
  queue: { getJob(id: string): Promise<{ getState(): Promise<string> } | undefined> },
  runId: string,
  chunk: number,
  size: number,
  signal: AbortSignal,
): Promise<Map<number, LineResult> | undefined> {
  const key = resultsKey(runId, chunk);
  let checkedAt = performance.now();
  for (;;) {
    if (signal.aborted) return undefined;
    let done = (await redis.hlen(key)) >= size;
    if (!done && performance.now() - checkedAt > STATE_CHECK_MS) {
      checkedAt = performance.now();
      const job = await queue.getJob(chunkJobId(runId, chunk));
      done = (await job?.getState()) === 'failed';
    }
    if (done) break;
    await new Promise((wake) => setTimeout(wake, POLL_MS));
  }
  const results = new Map<number, LineResult>();
  for (const [field, value] of Object.entries(await redis.hgetall(key))) {
    const line = Number(field);
    let parsed: ReturnType<typeof lineResult.safeParse> | undefined;
    try {
      parsed = lineResult.safeParse(JSON.parse(value));
    } catch {
      parsed = undefined;
    }
    // A record that does not validate is no answer: the line is reported as an error, never as clean.
    results.set(
      line,
      parsed?.success === true
        ? parsed.data
        : { verdict: 'error', hash: '', code: 'QUEUE_BAD_RECORD', message: 'the recorded result is unreadable' },
    );
  }
  return results;
}
