import type { NormalizedHash } from '../hashing/hash-algorithm.js';
import type { ScanOperation } from '../observe/events.js';
import type { Observers } from '../observe/observers.js';
import type { SharedProgress } from '../util/in-flight.js';

/**
 * What an observed lookup reports besides the transport's own events: the
 * cache level that answered (or missed), a join of a lookup already in
 * flight, and, at its end, where the answer came from and the attempts it
 * made itself. Built only when someone observes the client.
 */
export interface ScanTrace {
  readonly op: ScanOperation;
  /** The shared lookup's progress, once this operation owns one (a joiner made no attempt). */
  progress: SharedProgress | undefined;
  level(outcome: 'hit' | 'miss', level: 'memory' | 'shared'): void;
  joined(): void;
  attempts(): number;
  cache(): 'memory' | 'shared' | undefined;
}

export function scanTrace(observers: Observers, query: NormalizedHash, sourceId: string): ScanTrace {
  const op: ScanOperation = {
    client: 'hashscan',
    operation: 'scan',
    hash: query.hash,
    algorithm: query.algorithm,
    sourceId,
  };
  let answeredBy: 'memory' | 'shared' | undefined;
  return {
    op,
    progress: undefined,
    level(outcome, level) {
      if (outcome === 'hit') answeredBy = level;
      if (observers.listens('cache')) observers.emit({ type: 'cache', op, level, outcome });
    },
    joined() {
      if (observers.listens('in-flight:joined')) observers.emit({ type: 'in-flight:joined', op });
    },
    attempts() {
      return answeredBy === undefined ? (this.progress?.attempts ?? 0) : 0;
    },
    cache: () => answeredBy,
  };
}
