import { HashScanError } from '../errors/hashscan-error.js';

/** Digest algorithms the service accepts, told apart by length. */
export type HashAlgorithm = 'md5' | 'sha1' | 'sha256';

/** A hash in the only form the service is sent: lower-case hex. */
export interface NormalizedHash {
  readonly hash: string;
  readonly algorithm: HashAlgorithm;
}

const ALGORITHM_BY_LENGTH: ReadonlyMap<number, HashAlgorithm> = new Map([
  [32, 'md5'],
  [40, 'sha1'],
  [64, 'sha256'],
]);

const HEX = /^[0-9a-fA-F]+$/;
const UPPER_HEX = /[A-F]/;

/** The algorithm of a well-formed hex digest, or `undefined`. */
export function algorithmOf(hash: string): HashAlgorithm | undefined {
  const algorithm = ALGORITHM_BY_LENGTH.get(hash.length);
  return algorithm !== undefined && HEX.test(hash) ? algorithm : undefined;
}

/** The algorithm of a hash already checked by {@link normalizeHash}: its length alone tells. */
export function algorithmOfChecked(hash: string): HashAlgorithm {
  return ALGORITHM_BY_LENGTH.get(hash.length) ?? 'sha256';
}

/** Shows a bad input in a message without dumping a huge or binary value. */
function describe(input: unknown): string {
  if (typeof input !== 'string') {
    const type = input === null ? 'null' : typeof input;
    return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
  }
  const shown = JSON.stringify(input.length > 80 ? `${input.slice(0, 80)}…` : input);
  return `${shown} (${input.length} characters)`;
}

/**
 * Checks and lower-cases an MD5 (32), SHA-1 (40) or SHA-256 (64) hex digest.
 * Spaces, an algorithm prefix such as `sha256:`, separators, a wrong length
 * or non-hex characters are refused: the service wants the bare digest.
 *
 * @throws {HashScanError} with code `INVALID_HASH`.
 */
export function normalizeHash(input: unknown): NormalizedHash {
  const algorithm = typeof input === 'string' ? algorithmOf(input) : undefined;
  if (algorithm === undefined) {
    throw new HashScanError({
      code: 'INVALID_HASH',
      message: `not an MD5, SHA-1 or SHA-256 hex digest: ${describe(input)}; expected exactly 32, 40 or 64 hex digits with no prefix, spaces or separators`,
      hash: typeof input === 'string' ? input : undefined,
    });
  }
  // An input already in lower case is kept as is: a copy costs ~100 bytes per hash in a large batch.
  const hash = input as string;
  return { hash: UPPER_HEX.test(hash) ? hash.toLowerCase() : hash, algorithm };
}
