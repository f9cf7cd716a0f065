import type { Redis } from 'ioredis';
import type { HashScanClient } from '../../index.js';
import { SecretMask } from '../../secrets/secret-mask.js';
import { CONNECTION_OPTIONS, type Command, noArguments, parseFlags } from '../command.js';
import { connectHashScan, flagNumber } from '../config.js';
import { Diagnostics } from '../io.js';
import { UsageError } from '../usage-error.js';
import { REDIS_TIMEOUT_HELP } from './fleet-flag.js';
import { loadBullMq } from './load.js';
import {
  type ChunkJob,
  chunkJob,
  KEY_MISMATCH,
  type LineResult,
  QUEUE_NAME,
  QUEUE_PREFIX,
  RUN_TTL_MS,
  resultsKey,
} from './queue-room.js';
import { RecordWrites } from './record-writes.js';
import { connectQueue, EXIT_UNAVAILABLE, redisUrl } from './redis-connection.js';
import { keyId, queueSecret, runKey, sealRecord } from './seal.js';
import { WorkerLog } from './worker-log.js';

const OPTIONS = {
  ...CONNECTION_OPTIONS,
  queue: { type: 'string' },
  'api-key': { type: 'string' },
  concurrency: { type: 'string' },
  jobs: { type: 'string' },
  rate: { type: 'string' },
  'lock-ms': { type: 'string' },
  'redis-timeout': { type: 'string' },
  verbose: { type: 'boolean', short: 'v' },
  quiet: { type: 'boolean', short: 'q' },
} as const;

const HELP = `Usage: hashscan-sms worker --queue redis://HOST:PORT [options]

Processes the chunks that \`hashscan-sms lookup --queue\` puts on a BullMQ queue,
on any number of machines, until SIGINT or SIGTERM (then it finishes or hands back
its chunks and exits 0). Every worker shares the queue's Redis for the verdict
cache, the 429 pause and the rate limit, and asks the service once per hash for
all of them. A worker that dies mid-chunk loses nothing: the chunk goes to another
worker once its lock expires, which skips the lines already recorded.

Options:
  --queue URL           the queue's Redis (redis:// or rediss://; needs the optional
                        packages bullmq and ioredis)
  --concurrency N       lookups in flight per chunk (default 16)
  --jobs N              chunks processed at once (default 1)
  --rate R              requests per second for all workers together (default: no limit)
  --lock-ms MS          how long a chunk stays with a silent worker before another takes
                        it over (default 30000)
${REDIS_TIMEOUT_HELP}
  -v, --verbose         log each request on stderr (keys and secrets masked)
  -q, --quiet           no start and stop lines on stderr

Connection (flags override the environment):
  --api-key KEY         or HASHSCAN_API_KEY
  --base-url URL        or HASHSCAN_BASE_URL
  --sandbox             look up against an in-process sandbox (for trying it out)
  --timeout MS          per attempt (default 10000)
  --retries N           retries of transient failures (default 2)

Results are sealed with HASHSCAN_QUEUE_SECRET, else the API key: the producer
checks them with the same one. A chunk queued by a producer with another one is
refused (and said once per run), left to workers with the producer's key.`;

/** The result of one line as recorded for the producer. */
function recordOf(
  line: ChunkJob['lines'][number],
  outcome: Awaited<ReturnType<HashScanClient['scanOutcome']>>,
  mask: SecretMask,
): LineResult {
  // When it was answered: the producer prints a result only while it is fresh.
  const name = { at: Date.now(), ...(line.name === undefined ? {} : { name: line.name }) };
  if (outcome.verdict === 'malicious') {
    return {
      verdict: 'malicious',
      hash: line.hash,
      ...name,
      ...(outcome.source === undefined ? {} : { source: outcome.source }),
      ...(outcome.data?.first_seen === undefined ? {} : { firstSeen: outcome.data.first_seen }),
      ...(outcome.data?.last_seen === undefined ? {} : { lastSeen: outcome.data.last_seen }),
    };
  }
  if (outcome.verdict === 'not_detected') return { verdict: 'not_detected', hash: line.hash, ...name };
  return {
    verdict: 'error',
    hash: line.hash,
    ...name,
    code: outcome.error.code.slice(0, 64),
    message: mask.mask(outcome.error.message).slice(0, 2_048),
  };
}

/**
 * One chunk: the lines not recorded yet are looked up, each result recorded
 * once (`HSETNX`) as it settles. A job queued by a producer with another key
 * is refused, and said once per run: its results would not verify.
 */
async function processChunk(
  data: unknown,
  client: HashScanClient,
  redis: Redis,
  settings: {
    readonly concurrency: number;
    readonly mask: SecretMask;
    readonly secret: string;
    readonly log: WorkerLog;
    /** BullMQ moved the job back from a worker whose lock expired. */
    readonly takenOver: boolean;
  },
): Promise<number> {
  const { concurrency, mask, secret } = settings;
  const parsed = chunkJob.safeParse(data);
  if (!parsed.success) throw new Error('a chunk job that is not one: refused');
  const { runId, nonce, chunk, lines } = parsed.data;
  const seal = runKey(secret, runId, nonce);
  const id = keyId(secret);
  if (parsed.data.keyId !== id) {
    settings.log.refused(runId);
    throw new Error(
      `${KEY_MISMATCH}: this worker's HASHSCAN_QUEUE_SECRET (else its API key) is not the producer's: chunk refused`,
    );
  }
  const key = resultsKey(runId, chunk);
  const recorded = new Set((await redis.hkeys(key)).map(Number));
  const todo = lines.filter((line) => !recorded.has(line.line));
  if (settings.takenOver) settings.log.takenOver(runId, chunk, lines.length - todo.length, lines.length);
  const writes = new RecordWrites(redis, key);
  for await (const outcome of client.scanIterable(
    todo.map((line) => line.hash),
    { concurrency },
  )) {
    const line = todo[outcome.index] as ChunkJob['lines'][number];
    const json = JSON.stringify(recordOf(line, outcome, mask));
    writes.add(String(line.line), sealRecord(seal, id, chunk, line.line, json));
  }
  await writes.done(RUN_TTL_MS);
  return todo.length;
}

export const workerCommand: Command = {
  name: 'worker',
  help: HELP,
  async run(argv, { io, signal }) {
    const { values, positionals } = parseFlags(argv, OPTIONS, 'worker');
    noArguments(positionals, 'worker');
    if (values.queue === undefined) throw new UsageError('worker: --queue redis://… is required');
    const diagnostics = new Diagnostics(io, new SecretMask(), values.verbose === true);
    const url = redisUrl(values.queue, '--queue', diagnostics);
    const concurrency = flagNumber(values.concurrency, 'concurrency', { min: 1, max: 1024 }) ?? 16;
    const jobs = flagNumber(values.jobs, 'jobs', { min: 1, max: 64 }) ?? 1;
    const rate = flagNumber(values.rate, 'rate', { min: 1, max: 1_000_000 });
    const lockMs = flagNumber(values['lock-ms'], 'lock-ms', { min: 1_000, max: 3_600_000 }) ?? 30_000;
    const secret = queueSecret(values, io.env);
    const { Worker } = await loadBullMq('--queue');
    const redis = await connectQueue(url, diagnostics);
    if (redis === undefined) return EXIT_UNAVAILABLE;
    // The shared cache and the fleet on the queue's own Redis: one pause, one quota, one request per hash.
    const connection = await connectHashScan(
      { ...values, redis: url, ...(rate === undefined ? {} : { rate: String(rate) }) },
      concurrency * jobs,
      diagnostics,
    ).catch((error: unknown) => {
      redis.disconnect();
      throw error;
    });
    const log = new WorkerLog(diagnostics, process.pid);
    log.watch(redis);
    const worker = new Worker(
      QUEUE_NAME,
      (job) =>
        processChunk(job.data, connection.client, redis, {
          concurrency,
          mask: diagnostics.secrets,
          secret,
          log,
          takenOver: job.stalledCounter > 0,
        }),
      {
        connection: redis,
        prefix: QUEUE_PREFIX,
        concurrency: jobs,
        lockDuration: lockMs,
        stalledInterval: Math.max(500, Math.floor(lockMs / 2)),
        maxStalledCount: 3,
      },
    );
    worker.on('error', () => {});
    if (values.quiet !== true) diagnostics.line(`hashscan-sms: worker ${process.pid} waiting for chunks`);
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
    log.stop();
    // The chunks in hand are finished if that is quick; else they are handed back (their lines recorded so far stay).
    const closing = worker.close();
    const late = await Promise.race([closing.then(() => false), new Promise((wake) => setTimeout(wake, 5_000, true))]);
    if (late === true) await worker.close(true);
    await connection.close();
    redis.disconnect();
    if (values.quiet !== true) diagnostics.line(`hashscan-sms: worker ${process.pid} stopped`);
    return 0;
  },
};
