import { TruncatedStreamError } from '../errors/truncated-stream-error.js';
import { checkAlgorithm, checkAlgorithms, DigestSet, type Digests } from './digests.js';
import type { HashAlgorithm } from './hash-algorithm.js';

/**
 * Reads a stream to its end and returns its lower-case hex digest, or
 * several digests from the same pass: a request body, an S3 object, a
 * `fetch` body (`Readable.fromWeb(response.body)`). Memory stays at one
 * chunk. The stream is consumed; a stream error rejects with that error.
 *
 * A stream that reports `truncated: true` once it has ended (busboy, `@fastify/multipart` and
 * multer set it on a file past the upload's size limit) rejects with {@link TruncatedStreamError}:
 * the digest of its first bytes is not the file's, and looking it up would check another file.
 *
 * @param readable - Any async iterable of byte chunks: a Node `Readable`, a web `ReadableStream` on Node 20+.
 * @param algorithm - `'sha256'` (default), `'sha1'` or `'md5'`; or an array of them.
 * @throws `TypeError` for an unknown algorithm or a chunk that is not bytes (a stream in object or string mode);
 *   {@link TruncatedStreamError} for a stream that ended `truncated`.
 *
 * @example
 * ```ts
 * const sha256 = await hashStream(req)            // an incoming upload
 * const { md5, sha256 } = await hashStream(req, ['md5', 'sha256'])
 * const upload = await hashStream(part.file)       // @fastify/multipart: TruncatedStreamError past limits.fileSize
 * ```
 */
export async function hashStream(readable: AsyncIterable<unknown>, algorithm?: HashAlgorithm): Promise<string>;
export async function hashStream<A extends HashAlgorithm>(
  readable: AsyncIterable<unknown>,
  algorithms: readonly A[],
): Promise<Digests<A>>;
export async function hashStream(
  readable: AsyncIterable<unknown>,
  algorithm: HashAlgorithm | readonly HashAlgorithm[] = 'sha256',
): Promise<string | Digests> {
  const algorithms = Array.isArray(algorithm)
    ? checkAlgorithms(algorithm, 'hashStream')
    : [checkAlgorithm(algorithm, 'hashStream')];
  if (readable === null || typeof readable !== 'object' || !(Symbol.asyncIterator in readable)) {
    throw new TypeError('hashStream: readable must be a stream (an async iterable of Buffer or Uint8Array chunks)');
  }
  const set = new DigestSet(algorithms);
  let bytesRead = 0;
  for await (const chunk of readable) {
    // A string chunk would be hashed in an encoding the caller did not choose: refuse it.
    if (!(chunk instanceof Uint8Array)) {
      throw new TypeError('hashStream: every chunk must be a Buffer or Uint8Array (not a string or object)');
    }
    set.update(chunk);
    bytesRead += chunk.byteLength;
  }
  // Read at the end: busboy-style streams set it when the limit is reached, then end quietly.
  if ((readable as { truncated?: unknown }).truncated === true) throw new TruncatedStreamError({ bytesRead });
  const digests = set.digests();
  return Array.isArray(algorithm) ? digests : digests[algorithms[0] as HashAlgorithm];
}
