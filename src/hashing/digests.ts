import { createDigest, type Digest, toHex } from '../util/crypto.js';
import type { HashAlgorithm } from './hash-algorithm.js';

/**
 * Hex digests of the same bytes, one per requested algorithm, lower case.
 *
 * @example
 * ```ts
 * const { sha256, md5 } = await hashFile(path, ['sha256', 'md5'])
 * ```
 */
export type Digests<A extends HashAlgorithm = HashAlgorithm> = { readonly [K in A]: string };

const ALGORITHMS: ReadonlySet<string> = new Set<HashAlgorithm>(['md5', 'sha1', 'sha256']);

/** Checks one algorithm name; a typed error names the function that got it. */
export function checkAlgorithm(algorithm: unknown, caller: string): HashAlgorithm {
  if (typeof algorithm !== 'string' || !ALGORITHMS.has(algorithm)) {
    throw new TypeError(`${caller}: algorithm must be 'md5', 'sha1' or 'sha256'`);
  }
  return algorithm as HashAlgorithm;
}

/** Checks a non-empty list of algorithms and drops repeats (each digest is computed once). */
export function checkAlgorithms(algorithms: unknown, caller: string): readonly HashAlgorithm[] {
  if (!Array.isArray(algorithms) || algorithms.length === 0) {
    throw new TypeError(`${caller}: algorithms must be a non-empty array of 'md5', 'sha1' or 'sha256'`);
  }
  return [...new Set(algorithms.map((algorithm) => checkAlgorithm(algorithm, caller)))];
}

/** Several hashes (`node:crypto` where the runtime has it, see `util/crypto.ts`) fed from the same reads: one pass over the bytes for every digest. */
export class DigestSet {
  readonly #hashes: readonly (readonly [HashAlgorithm, Digest])[];

  constructor(algorithms: readonly HashAlgorithm[]) {
    this.#hashes = algorithms.map((algorithm) => [algorithm, createDigest(algorithm)] as const);
  }

  update(chunk: Uint8Array): void {
    for (const [, hash] of this.#hashes) hash.update(chunk);
  }

  digests(): Record<HashAlgorithm, string> {
    const out: Partial<Record<HashAlgorithm, string>> = {};
    for (const [algorithm, hash] of this.#hashes) out[algorithm] = toHex(hash.bytes());
    return out as Record<HashAlgorithm, string>;
  }
}
