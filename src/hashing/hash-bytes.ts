import { checkAlgorithm, checkAlgorithms, DigestSet, type Digests } from './digests.js';
import type { HashAlgorithm } from './hash-algorithm.js';

function checkBytes(data: unknown, caller: string): Uint8Array {
  // Buffer is a Uint8Array; a string would be hashed in some encoding the caller did not choose.
  if (!(data instanceof Uint8Array)) throw new TypeError(`${caller}: data must be a Buffer or Uint8Array`);
  return data;
}

/**
 * The lower-case hex digest of bytes already in memory (an upload handler's
 * buffer), or several digests in one pass. Synchronous: hashing a buffer
 * costs no I/O.
 *
 * @param data - The bytes: a `Buffer` or any `Uint8Array` (a view hashes only its own range).
 * @param algorithm - `'sha256'` (default), `'sha1'` or `'md5'`; or an array of them.
 * @throws `TypeError` for anything but bytes or an unknown algorithm.
 *
 * @example
 * ```ts
 * app.post('/upload', async (req, res) => {
 *   const result = await client.scan(hashBytes(req.body))
 * })
 * ```
 */
export function hashBytes(data: Uint8Array, algorithm?: HashAlgorithm): string;
export function hashBytes<A extends HashAlgorithm>(data: Uint8Array, algorithms: readonly A[]): Digests<A>;
export function hashBytes(
  data: Uint8Array,
  algorithm: HashAlgorithm | readonly HashAlgorithm[] = 'sha256',
): string | Digests {
  const bytes = checkBytes(data, 'hashBytes');
  const algorithms = Array.isArray(algorithm)
    ? checkAlgorithms(algorithm, 'hashBytes')
    : [checkAlgorithm(algorithm, 'hashBytes')];
  const set = new DigestSet(algorithms);
  set.update(bytes);
  const digests = set.digests();
  return Array.isArray(algorithm) ? digests : digests[algorithms[0] as HashAlgorithm];
}
