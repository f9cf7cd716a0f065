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

  constructor(init: { readonly bytesRead: number }) {
    super({
      message:
        'the stream ended with `truncated: true` (an upload cut at its size limit): its digest would not be the file’s',
    });
    this.bytesRead = init.bytesRead;
  }
}
