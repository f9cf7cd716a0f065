import { durationLabel } from '../../config/duration.js';
import type { DecisionPolicy } from '../../index.js';
import { SecretMask } from '../../secrets/secret-mask.js';
import type { CommandContext } from '../command.js';
import { flagDuration, flagNumber } from '../config.js';
import { Diagnostics } from '../io.js';
import type { Format } from '../output/index.js';
import { UsageError } from '../usage-error.js';
import { REDIS_DOWN_MS } from './chunk-wait.js';
import { runQueuedLookup } from './producer.js';
import { DEFAULT_CHUNK_SIZE, RECORD_MAX_AGE_MS, RUN_TTL_MS } from './queue-room.js';
import { queueSecret } from './seal.js';

/** The flags `lookup` gains for batches across machines. */
export const QUEUE_OPTIONS = {
  queue: { type: 'string' },
  'run-id': { type: 'string' },
  'chunk-size': { type: 'string' },
  'max-age': { type: 'string' },
  'redis-wait': { type: 'string' },
} as const;

export const QUEUE_HELP = `Across machines (BullMQ; needs the optional packages bullmq and ioredis):
  --queue URL           split the input into chunk jobs on this Redis and print what
                        \`hashscan-sms worker --queue URL\` processes (any number, any
                        machine), in input order, same formats and exit statuses
  --run-id ID           the run's id (default: from a digest of the input); a second
                        producer with the same id and input resumes the run
  --chunk-size N        lines per chunk job (default ${DEFAULT_CHUNK_SIZE})
  --max-age D           with --queue: a recorded result older than D (90s, 15m; bare
                        digits are ms) is asked again, never printed (default
                        ${durationLabel(RECORD_MAX_AGE_MS)}: the client cache's lifetime)
  --redis-wait D        with --queue: how long Redis may not answer before the run
                        stops with exit 2 (1s to 1d; default ${durationLabel(REDIS_DOWN_MS)})
  Results are sealed by the workers and checked here with HASHSCAN_QUEUE_SECRET, else
  the API key: give the producer the same one as the workers. A result answered before
  the run, or sealed with another key, is asked again. Redis restarted empty: the lost
  chunks are enqueued again; Redis silent for --redis-wait: the run stops (exit 2)`;

/** `lookup --queue …`: the flags a local run would use, checked, then the producer. */
export function queuedLookup(
  values: {
    readonly queue?: string;
    readonly 'run-id'?: string;
    readonly 'chunk-size'?: string;
    readonly 'max-age'?: string;
    readonly 'redis-wait'?: string;
    readonly input?: string;
    readonly resume?: string;
    readonly redis?: string;
    readonly 'redis-timeout'?: string;
    readonly quiet?: boolean;
    readonly verbose?: boolean;
    readonly sandbox?: boolean;
    readonly wide?: boolean;
    readonly 'api-key'?: string;
    readonly null?: boolean;
  },
  positionals: readonly string[],
  output: { readonly format: Format; readonly failOn: 'review' | 'block'; readonly policy: DecisionPolicy },
  context: CommandContext,
): Promise<number> {
  if (values.resume !== undefined) {
    throw new UsageError('lookup: --queue runs resume by --run-id, not --resume (the state is in the queue)');
  }
  if (values['redis-timeout'] !== undefined) {
    throw new UsageError('lookup: with --queue the workers look up: give --redis-timeout to `worker`');
  }
  const diagnostics = new Diagnostics(context.io, new SecretMask(), values.verbose === true);
  return runQueuedLookup(
    {
      queue: values.queue ?? '',
      runId: values['run-id'],
      chunkSize: flagNumber(values['chunk-size'], 'chunk-size', { min: 1, max: 100_000 }) ?? DEFAULT_CHUNK_SIZE,
      input: values.input,
      positionals,
      nul: values.null === true,
      ...output,
      quiet: values.quiet === true,
      wide: values.wide === true,
      secret: queueSecret(values, context.io.env),
      maxAgeMs: flagDuration(values['max-age'], 'max-age', { minMs: 1_000, maxMs: RUN_TTL_MS }) ?? RECORD_MAX_AGE_MS,
      redisDownMs:
        flagDuration(values['redis-wait'], 'redis-wait', { minMs: 1_000, maxMs: 86_400_000 }) ?? REDIS_DOWN_MS,
    },
    diagnostics,
    context,
  );
}
