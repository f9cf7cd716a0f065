import { EncodedBodyError } from '../errors/encoded-body-error.js';
import { TruncatedStreamError } from '../errors/truncated-stream-error.js';
import { checkAlgorithm, checkAlgorithms, DigestSet, type Digests } from './digests.js';
import type { HashAlgorithm } from './hash-algorithm.js';

/** A web-standard upload: a body stream, a `Blob` or `File`, or a `Request` / `Response` whose body is read. */
export type UploadBody = ReadableStream<Uint8Array> | Blob | Request | Response;

/** Options of {@link hashUpload}. */
export interface HashUploadOptions<A extends HashAlgorithm = HashAlgorithm> {
  /**
   * The most bytes read: a longer body rejects with {@link TruncatedStreamError} (never a digest of
   * its first bytes), and its stream is cancelled. A `Blob` or a `Content-Length` over it rejects
   * before reading. Required: a web body has no size limit of its own.
   */
  readonly maxBytes: number;
  /** `'sha256'` (the default) or another digest; or several, computed in one pass. @defaultValue `'sha256'` */
  readonly algorithm?: A | readonly A[];
}

/**
 * Hashes a web-standard upload (Hono, Next.js route handlers, Bun, Deno, Workers) without a Node
 * stream adapter: a `ReadableStream`, a `Blob` / `File`, or a `Request`'s (or `Response`'s) body,
 * read once, one chunk in memory at a time. The same fail-closed rules as `hashStream`: a chunk
 * that is not bytes is a `TypeError`, and a body cut at its limit gives no digest.
 *
 * A `Request` or `Response` with a `Content-Encoding` other than `identity` is refused before
 * reading: `fetch` hands over a `Response` body already decoded, and decodes leniently (a gzip,
 * deflate or br stream cut short ends without an error, so its digest would be of part of the
 * file), while a server's `Request` body is still encoded. Download with
 * `Accept-Encoding: identity` to hash a fetched file.
 *
 * @throws {@link TruncatedStreamError} when the body is longer than `maxBytes`;
 *   {@link EncodedBodyError} for a `Request` / `Response` with a `Content-Encoding`;
 *   `TypeError` for a bad argument or a chunk that is not bytes.
 *
 * @example
 * ```ts
 * // Hono, Bun.serve, Deno.serve, a Worker
 * const sha256 = await hashUpload(request, { maxBytes: 10 * 1024 * 1024 })
 * const form = await request.formData()
 * const { md5, sha256 } = await hashUpload(form.get('file') as File, { maxBytes, algorithm: ['md5', 'sha256'] })
 * ```
 */
export async function hashUpload(
  body: UploadBody,
  options: HashUploadOptions & { algorithm?: HashAlgorithm },
): Promise<string>;
export async function hashUpload<A extends HashAlgorithm>(
  body: UploadBody,
  options: HashUploadOptions<A> & { algorithm: readonly A[] },
): Promise<Digests<A>>;
export async function hashUpload(body: UploadBody, options: HashUploadOptions): Promise<string | Digests> {
  const maxBytes = options?.maxBytes;
  if (typeof maxBytes !== 'number' || !Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new TypeError('hashUpload: maxBytes must be a whole number of bytes (0 or more)');
  }
  const algorithm = options.algorithm ?? 'sha256';
  const algorithms = Array.isArray(algorithm)
    ? checkAlgorithms(algorithm, 'hashUpload')
    : [checkAlgorithm(algorithm, 'hashUpload')];
  const stream = bodyStream(body, maxBytes);
  const set = new DigestSet(algorithms);
  let bytesRead = 0;
  if (stream !== null) {
    const reader = stream.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!(value instanceof Uint8Array)) {
          throw new TypeError('hashUpload: every chunk must be a Uint8Array (not a string or object)');
        }
        bytesRead += value.byteLength;
        if (bytesRead > maxBytes) throw new TruncatedStreamError({ bytesRead: bytesRead - value.byteLength, maxBytes });
        set.update(value);
      }
    } catch (error) {
      // Stops the upload: nothing more of it is wanted.
      await reader.cancel(error).catch(() => undefined);
      throw error;
    } finally {
      reader.releaseLock();
    }
  }
  const digests = set.digests();
  return Array.isArray(algorithm) ? digests : digests[algorithms[0] as HashAlgorithm];
}

/** The body as a stream (`null`: no body), after the limits that can be known before reading. */
function bodyStream(body: UploadBody, maxBytes: number): ReadableStream<Uint8Array> | null {
  if (typeof Blob !== 'undefined' && body instanceof Blob) {
    if (body.size > maxBytes) throw new TruncatedStreamError({ bytesRead: 0, maxBytes });
    return body.stream();
  }
  if (typeof ReadableStream !== 'undefined' && body instanceof ReadableStream) return body;
  if (
    (typeof Request !== 'undefined' && body instanceof Request) ||
    (typeof Response !== 'undefined' && body instanceof Response)
  ) {
    if (body.bodyUsed) throw new TypeError('hashUpload: the body was already read');
    // Fail closed: neither a leniently decoded body nor a still-encoded one is the file's bytes.
    const encoding = body.headers.get('content-encoding')?.trim() ?? '';
    if (encoding !== '' && encoding.toLowerCase() !== 'identity') {
      void body.body?.cancel().catch(() => undefined);
      throw new EncodedBodyError(encoding);
    }
    const length = Number(body.headers.get('content-length') ?? Number.NaN);
    if (Number.isFinite(length) && length > maxBytes) {
      void body.body?.cancel().catch(() => undefined);
      throw new TruncatedStreamError({ bytesRead: 0, maxBytes });
    }
    return body.body;
  }
  throw new TypeError('hashUpload: body must be a ReadableStream, a Blob or File, a Request or a Response');
}
