import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { HashAlgorithm } from './hash-algorithm.js';

/**
 * Streams a file through `node:crypto` and returns its lower-case hex digest,
 * without loading the file in memory. SHA-256 is the default, as the spec
 * prefers it; reuse a digest you already have rather than hashing again.
 *
 * @example
 * ```ts
 * const verdict = await client.scan(await hashFile('/uploads/report.pdf'))
 * ```
 */
export async function hashFile(path: string, algorithm: HashAlgorithm = 'sha256'): Promise<string> {
  if (algorithm !== 'md5' && algorithm !== 'sha1' && algorithm !== 'sha256') {
    throw new TypeError(`hashFile: algorithm must be 'md5', 'sha1' or 'sha256'`);
  }
  const hash = createHash(algorithm);
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}
