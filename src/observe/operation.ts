import type { OperationRef } from './events.js';
import type { Observers } from './observers.js';

/** What {@link observeOperation} reads when the operation ends. */
export interface OperationTally {
  /** HTTP attempts the operation made itself. */
  readonly attempts: () => number;
  /** Where the answer came from, when a cache answered. */
  readonly cache?: () => 'memory' | 'shared' | undefined;
}

/**
 * Runs one operation between its `operation:start` and `operation:end`
 * events. Call it only when `observers.active`: a client nobody observes
 * runs the operation as is, without this wrapper's promise.
 */
export function observeOperation<T>(
  observers: Observers,
  op: OperationRef,
  tally: OperationTally,
  run: () => Promise<T>,
): Promise<T> {
  if (observers.listens('operation:start')) observers.emit({ type: 'operation:start', op });
  if (!observers.listens('operation:end')) return run();
  const started = performance.now();
  return run().then(
    (result) => {
      observers.emit({
        type: 'operation:end',
        op,
        result,
        cache: tally.cache?.(),
        attempts: tally.attempts(),
        durationMs: performance.now() - started,
      });
      return result;
    },
    (error: unknown) => {
      const code = (error as { code?: unknown } | undefined)?.code;
      observers.emit({
        type: 'operation:end',
        op,
        ...(error instanceof Error ? { error } : {}),
        ...(typeof code === 'string' ? { errorCode: code } : {}),
        cache: undefined,
        attempts: tally.attempts(),
        durationMs: performance.now() - started,
      });
      throw error;
    },
  );
}
