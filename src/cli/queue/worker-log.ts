import type { Redis } from 'ioredis';
import { errorCode } from '../../util/error-code.js';
import type { Diagnostics } from '../io.js';

/**
 * What a worker says on stderr of its Redis and of the chunks it takes, in
 * the producer's words (`chunk-wait.ts`), after `worker <pid>:` instead of
 * `run <id>:`. Said with or without `--quiet`: a worker waiting for Redis,
 * or finishing a chunk another worker dropped, is never silent.
 */
export class WorkerLog {
  readonly #diagnostics: Diagnostics;
  readonly #prefix: string;
  readonly #refusedRuns = new Set<string>();
  #down = false;
  #stopped = false;

  constructor(diagnostics: Diagnostics, pid: number) {
    this.#diagnostics = diagnostics;
    this.#prefix = `hashscan-sms: worker ${pid}`;
  }

  /**
   * Says once when `redis` stops answering (its connection closed, or an
   * error; the worker waits for it, however long), and when it answers again.
   */
  watch(redis: Redis): void {
    redis.on('error', (error: unknown) => this.#lost(errorCode(error)));
    redis.on('close', () => this.#lost('connection closed'));
    redis.on('ready', () => {
      if (!this.#down || this.#stopped) return;
      this.#down = false;
      this.#line('Redis answers again');
    });
  }

  /** The worker is stopping: its own disconnection is not news. */
  stop(): void {
    this.#stopped = true;
  }

  #lost(why: string): void {
    if (this.#down || this.#stopped) return;
    this.#down = true;
    this.#line(`Redis does not answer (${why}); waiting for it`);
  }

  /** A chunk BullMQ took from a worker that stopped (its lock expired): the lines it recorded are not asked again. */
  takenOver(runId: string, chunk: number, recorded: number, lines: number): void {
    this.#line(
      `run ${runId}: chunk ${chunk} taken over from a worker that stopped (${recorded} of ${lines} lines recorded before)`,
    );
  }

  /** A run queued with another key: said once per run (for the first thousand runs). */
  refused(runId: string): void {
    if (this.#refusedRuns.has(runId) || this.#refusedRuns.size >= 1_000) return;
    this.#refusedRuns.add(runId);
    this.#line(
      `run ${runId} was queued with another key: this worker's HASHSCAN_QUEUE_SECRET (else its API key) must be the producer's; its chunks are left to other workers`,
    );
  }

  #line(text: string): void {
    this.#diagnostics.line(`${this.#prefix}: ${text}`);
  }
}
