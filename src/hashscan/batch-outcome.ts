import { type NormalizedHash, normalizeHash } from '../hashing/hash-algorithm.js';
import { errorOutcome } from './scan-outcome.js';
import type { ScanErrorOutcome } from './scan-result.js';

/**
 * Checks one batch entry: its normalized hash, or its `INVALID_HASH`
 * outcome. Whatever the entry is (a hole, `null`, an object whose
 * `toString` throws, a null-prototype object), it is never converted to a
 * string: the outcome's `hash` is the entry itself when it is a string, `''`
 * otherwise.
 */
export function checkEntry(input: unknown): NormalizedHash | ScanErrorOutcome {
  try {
    return normalizeHash(input);
  } catch (error) {
    return errorOutcome(typeof input === 'string' ? input : '', error);
  }
}

/** Tells a checked entry from its error outcome. */
export function isOutcome(entry: NormalizedHash | ScanErrorOutcome): entry is ScanErrorOutcome {
  return 'verdict' in entry;
}
