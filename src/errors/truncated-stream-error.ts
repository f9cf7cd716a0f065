import { brandErrorClass } from './brand.js';
import { HashScanSmsError } from './hashscan-sms-error.js';

/**
 * Thrown by `hashStream` for a stream that says, once it has ended, that it was cut short:
 * its `truncated` property is `true`, as busboy, `@fastify/multipart` and multer set it on a
 * file stream that went past the upload's size limit. The digest of the bytes that did arrive
 * is not the file's digest, so it is not returned: looking it up would check another file.
 * Nothing was sent.
 *
 * @example
 * ```ts
 * try { sha256 = await hashStream(part.file) }
 * catch (error) {
 *   if (error instanceof TruncatedStreamError) return reply.code(413).send('file too large')
 *   throw error
 * }
 * ```
 */
export class TruncatedStreamError extends HashScanSmsError {
  static {
    brandErrorClass(TruncatedStreamError, 'TruncatedStreamError');
  }

  readonly code = 'TRUNCATED_STREAM' as const;
  /** How many bytes the stream delivered before it ended (what would have been hashed). */
  readonly bytesRead: number;

  /** The byte limit the body went past (`hashUpload`'s `maxBytes`); `undefined` for a stream that said `truncated`. */
  readonly maxBytes: number | undefined;

  constructor(init: { readonly bytesRead: number; readonly maxBytes?: number }) {
    super({
      message:
        init.maxBytes === undefined
          ? 'the stream ended with `truncated: true` (an upload cut at its size limit): its digest would not be the file’s'
          : `the body is longer than maxBytes (${init.maxBytes}): it was not read to its end, and a digest of its first bytes would not be the file’s`,
    });
    this.bytesRead = init.bytesRead;
    this.maxBytes = init.maxBytes;
  }
}
