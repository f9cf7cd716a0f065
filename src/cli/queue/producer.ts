import { type DecisionPolicy, decide } from '../../index.js';
import type { CommandContext } from '../command.js';
import { backpressure, type Diagnostics, flushed } from '../io.js';
import { LOOKUP_COLUMNS, LOOKUP_CSV_COLUMNS } from '../lookup-columns.js';
import { createWriter, type Format, type Row } from '../output/index.js';
import { Progress } from '../progress.js';
import { errorCells, outcomeCells } from '../scan-row.js';
import { counted, type DecisionTally, describeTally, exitStatus } from '../tally.js';
import { UsageError } from '../usage-error.js';
import { enqueueChunks, type JobQueue, type RunStamp } from './chunk-jobs.js';
import { type ChunkWaitContext, RedisLost, RedisWatch, waitForChunk } from './chunk-wait.js';
import { loadBullMq } from './load.js';
import { type LineResult, QUEUE_NAME, QUEUE_PREFIX, RUN_ID } from './queue-room.js';
import { connectQueue, EXIT_UNAVAILABLE, redisUrl } from './redis-connection.js';
import { openRunInput } from './run-input.js';
import { claimRun, recordRunAgain } from './run-record.js';
import { keyId, runKey } from './seal.js';

/** What `lookup --queue` was given. */
export interface QueuedLookup {
  readonly queue: string;
  readonly runId: string | undefined;
  readonly chunkSize: number;
  readonly input: string | undefined;
  readonly positionals: readonly string[];
  /** `-0`: the input's lines end with NUL (`sha256sum -z`), not newline. */
  readonly nul: boolean;
  readonly format: Format;
  readonly failOn: 'review' | 'block';
  readonly policy: DecisionPolicy;
  readonly quiet: boolean;
  /** `--wide`: table cells whole on a terminal too. */
  readonly wide: boolean;
  /** Seals and checks the workers' results (see `seal.ts`). */
  readonly secret: string;
  /** A recorded result older than this (ms) is asked again. */
  readonly maxAgeMs: number;
  /** How long Redis may not answer before the run stops (ms). */
  readonly redisDownMs: number;
}

/** The row cells of a recorded result: the same as a local run's, `checkedAt` when the worker was answered. */
function cellsOf(result: LineResult, policy: DecisionPolicy): Row {
  if (result.verdict === 'error') {
    return errorCells({ code: result.code, message: result.message }, decide(result, policy), result.at);
  }
  if (result.verdict === 'not_detected') return outcomeCells(result, policy, result.at);
  const data = { first_seen: result.firstSeen, last_seen: result.lastSeen };
  return outcomeCells({ verdict: 'malicious', source: result.source, data }, policy, result.at);
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
  const runId = options.runId ?? input.meta.digest.slice(0, 32);
  const redis = await connectQueue(url, diagnostics, 'producer');
  if (redis === undefined) {
    await input.close();
    return EXIT_UNAVAILABLE;
  }
  const queue = new Queue(QUEUE_NAME, { connection: redis, prefix: QUEUE_PREFIX });
  // A lost connection surfaces through the calls that fail (the watch below); an unhandled 'error' would end the process.
  queue.on('error', () => {});
  const watch = new RedisWatch(diagnostics, runId, options.redisDownMs);
  redis.on('ready', () => {
    watch.recovered = true;
  });
  const progress = new Progress(io.err, io.err.isTTY === true && !options.quiet, false);
  progress.counters.total = input.meta.lines;
  let printed = 0;
  let lost: RedisLost | undefined;
  const tally: DecisionTally = { allow: 0, block: 0, review: 0 };
  // The columns and options of a local run's writer, so queued and local output are the same.
  const writer = createWriter(
    options.format,
    options.format === 'table' ? LOOKUP_COLUMNS : LOOKUP_CSV_COLUMNS,
    io.out,
    io.env,
    { wide: options.wide },
  );
  try {
    const { meta, state } = await watch.until(() => claimRun(redis, options.secret, runId, input.meta, diagnostics));
    if (!options.quiet) {
      diagnostics.line(
        `hashscan-sms: run ${runId}: ${state === 'new' ? 'queued' : 'resuming'} ${counted(meta.lines, 'line')} in ${counted(meta.chunks, 'chunk')}`,
      );
    }
    const key = runKey(options.secret, runId, meta.nonce);
    const stamp: RunStamp = { runId, nonce: meta.nonce, keyId: keyId(options.secret) };
    const jobs = queue as unknown as JobQueue;
    const chunks = await watch.until(() => enqueueChunks(jobs, stamp, input.chunks()));
    const context: ChunkWaitContext = {
      redis,
      queue: jobs,
      watch,
      stamp,
      meta,
      key,
      maxAgeMs: options.maxAgeMs,
      signal,
      restore: async (from) => {
        await recordRunAgain(redis, options.secret, runId, meta);
        await enqueueChunks(jobs, stamp, input.chunks(), from);
      },
    };
    // The input is read a third time, chunk by chunk, to print each line with its own hash: a result is taken
    // only for the hash the input has on that line.
    let chunk = 0;
    for await (const lines of input.chunks()) {
      if (signal.aborted || chunk >= chunks) break;
      const rows = await waitForChunk(context, chunk, lines);
      if (rows === undefined) break;
      for (const { line, result } of rows) {
        printed += 1;
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
  } catch (error) {
    if (!(error instanceof RedisLost)) throw error;
    lost = error;
  } finally {
    progress.stop();
    writer.end();
    await flushed(io.out);
    await queue.close();
    redis.disconnect();
    await input.close();
  }
  if (signal.aborted) return 130;
  if (lost !== undefined) {
    diagnostics.line(
      `hashscan-sms: run ${runId}: stopped, ${lost.message} for ${Math.round(options.redisDownMs / 1000)} s: ${printed} of ${input.meta.lines} lines printed; the same command resumes the run`,
    );
    return 2;
  }
  if (printed !== input.meta.lines) {
    // The input changed between its reads (a file rewritten during the run): what it covers is not known.
    diagnostics.line(
      `hashscan-sms: run ${runId}: ${printed} of ${input.meta.lines} lines printed: the input changed while it was read; run again`,
    );
    return 2;
  }
  if (!options.quiet) diagnostics.line(`hashscan-sms: run ${runId}: ${describeTally(tally, 'hash')}`);
  return exitStatus(tally, options.failOn);
}
