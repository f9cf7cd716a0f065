/*
 * Hands each event of the seam to every subscriber of one client, and keeps
 * what an operation's end reports (attempts made, the cache level that
 * answered) from the events that went before. Imports the vocabulary only.
 */
import type { Observer, ObserverEvent, OperationRef } from './events.js';

interface Track {
  attempts: number;
  cache: 'memory' | 'shared' | undefined;
  readonly started: number;
}

/** The subscribers of one client; built only when there is at least one. */
export class ObserverFanOut {
  readonly #observers: readonly Observer[];
  readonly #tracks = new WeakMap<OperationRef, Track>();

  constructor(observers: readonly Observer[]) {
    this.#observers = observers;
  }

  /** The fan-out of `observers`, or `undefined` when there is none (the call path then checks one field). */
  static of(observers: readonly (Observer | undefined)[]): ObserverFanOut | undefined {
    const present = observers.filter((observer): observer is Observer => observer !== undefined);
    return present.length === 0 ? undefined : new ObserverFanOut(present);
  }

  emit(event: ObserverEvent): void {
    if (event.type === 'attempt:start' && event.op !== undefined) {
      const track = this.#tracks.get(event.op);
      if (track !== undefined) track.attempts += 1;
    } else if (event.type === 'cache' && event.outcome === 'hit') {
      const track = this.#tracks.get(event.op);
      if (track !== undefined) track.cache = event.level;
    }
    for (const observer of this.#observers) {
      try {
        observer.observe(event);
      } catch {
        // A subscriber must not break a call (see `Observer`).
      }
    }
  }

  /**
   * Runs one operation between its `operation:start` (now, in the caller's
   * async context) and its `operation:end`; resolves or rejects as `run` does.
   */
  operation<T>(op: OperationRef, run: () => Promise<T>): Promise<T> {
    this.#tracks.set(op, { attempts: 0, cache: undefined, started: performance.now() });
    this.emit({ type: 'operation:start', op });
    let running: Promise<T>;
    try {
      running = run();
    } catch (error) {
      running = Promise.reject(error);
    }
    return running.then(
      (result) => {
        this.#end(op, result, undefined);
        return result;
      },
      (error: unknown) => {
        this.#end(op, undefined, error instanceof Error ? error : new Error(String(error)));
        throw error;
      },
    );
  }

  #end(op: OperationRef, result: unknown, error: Error | undefined): void {
    const track = this.#tracks.get(op);
    this.#tracks.delete(op);
    const code = (error as { code?: unknown } | undefined)?.code;
    this.emit({
      type: 'operation:end',
      op,
      ...(error === undefined ? { result } : { error }),
      ...(typeof code === 'string' ? { errorCode: code } : {}),
      cache: track?.cache,
      attempts: track?.attempts ?? 0,
      durationMs: track === undefined ? 0 : performance.now() - track.started,
    });
  }
}
