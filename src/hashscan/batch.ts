import { ConfigurationError } from '../errors/configuration-error.js';
import { HashScanError } from '../errors/hashscan-error.js';
import { algorithmOfChecked, type NormalizedHash } from '../hashing/hash-algorithm.js';
import type { AbortLike } from '../util/abort-like.js';
import { isValidConcurrency } from '../util/concurrency.js';
import { linkedSignal } from '../util/linked-signal.js';
import { checkEntry, isOutcome } from './batch-outcome.js';
import type { ScanOutcome } from './scan-result.js';

/** What {@link scanBatch} needs of the caller's options, checked. */
const DEFAULT_CONCURRENCY = 8;

/** The `concurrency` and `signal` of a batch's options, checked (default concurrency 8). */
export function batchSettings(options: {
  readonly concurrency?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}): {
  concurrency: number;
  signal: AbortSignal | undefined;
} {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!isValidConcurrency(concurrency)) {
    throw new ConfigurationError('concurrency', 'must be a whole number from 1 to 1024');
  }
  return { concurrency, signal: options.signal };
}

export interface BatchSettings {
  readonly concurrency: number;
  readonly signal: AbortSignal | undefined;
  readonly onProgress: ((progress: { readonly done: number; readonly total: number }) => void) | undefined;
}

/** Looks up one checked hash; never rejects (errors become outcomes). */
export type Lookup = (query: NormalizedHash, signal: AbortLike) => Promise<ScanOutcome>;

/**
 * `scanMany`: one outcome per index, holes and non-strings included, one
 * lookup per distinct hash. Memory per input is a few bytes of bookkeeping
 * besides the outcome itself: the distinct hashes are numbered once, their
 * first index kept in a typed array, and the other indices of the same hash
 * chained from it in another, so no object is made per input. Entries of the
 * same hash share one outcome object.
 */
export async function scanBatch(
  hashes: readonly unknown[],
  settings: BatchSettings,
  lookup: Lookup,
): Promise<ScanOutcome[]> {
  if (!Array.isArray(hashes)) {
    throw new HashScanError({
      code: 'INVALID_HASH',
      message: 'scanMany expects an array of hashes (for other iterables, use scanIterable)',
    });
  }
  const total = hashes.length;
  const outcomes = new Array<ScanOutcome>(total);
  let done = 0;
  const progress = (count: number): void => {
    done += count;
    settings.onProgress?.({ done, total });
  };

  // Distinct hashes: `keys[u]` (normalized), first seen at `firsts[u]`; `nextSame[i]` is the
  // next index of the same hash after `i`, or -1.
  const nextSame = new Int32Array(total).fill(-1);
  const firsts = new Int32Array(total);
  const keys: string[] = [];
  {
    const lastIndexOf = new Map<string, number>();
    for (let index = 0; index < total; index++) {
      const entry = checkEntry(read(hashes, index));
      if (isOutcome(entry)) {
        outcomes[index] = entry;
        progress(1);
        continue;
      }
      const last = lastIndexOf.get(entry.hash);
      if (last === undefined) {
        firsts[keys.length] = index;
        keys.push(entry.hash);
      } else {
        nextSame[last] = index;
      }
      lastIndexOf.set(entry.hash, index);
    }
  }

  const batch = linkedSignal(settings.signal);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < keys.length) {
      const unique = next++;
      const hash = keys[unique] as string;
      // Every key passed normalizeHash above: its length tells the algorithm.
      const outcome = await lookup({ hash, algorithm: algorithmOfChecked(hash) }, batch.signal);
      let count = 0;
      for (let index = firsts[unique] as number; index !== -1; index = nextSame[index] as number) {
        outcomes[index] = outcome;
        count += 1;
      }
      progress(count);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(settings.concurrency, keys.length) }, worker));
  } catch (error) {
    // Only the caller's onProgress can throw: the batch rejects with it and stops its lookups.
    failed = true;
    batch.abort();
    throw error;
  } finally {
    batch.dispose();
  }
  return outcomes;
}

/** `hashes[index]`, or the error a throwing getter raised (which then is the entry's problem, not the batch's). */
function read(hashes: readonly unknown[], index: number): unknown {
  try {
    return hashes[index];
  } catch {
    return undefined;
  }
}
