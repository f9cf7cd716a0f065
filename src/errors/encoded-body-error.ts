import { brandErrorClass } from './brand.js';
import { HashScanSmsError } from './hashscan-sms-error.js';

/**
 * Thrown by `hashUpload` for a `Request` or `Response` with a `Content-Encoding` (`gzip`, `deflate`,
 * `br`, …; anything but `identity`). Neither body is the file's bytes to be trusted: `fetch` has
 * already decoded a `Response`'s body, leniently (a compressed stream cut short ends without an
 * error, so its digest would be of part of the file), and a server's `Request` body is still encoded
 * (its digest would be of the compressed bytes). No digest is given, the body is cancelled, and
 * nothing was sent. Download with `Accept-Encoding: identity`, or decode the raw bytes with a decoder
 * that fails on a cut stream and hash what it gives.
 *
 * @example
 * ```ts
 * try { sha256 = await hashUpload(await fetch(url), { maxBytes }) }
 * catch (error) {
 *   if (error instanceof EncodedBodyError) sha256 = await hashUpload(await fetch(url, { headers: { 'accept-encoding': 'identity' } }), { maxBytes })
 *   else throw error
 * }
 * ```
 */
export class EncodedBodyError extends HashScanSmsError {
  static {
    brandErrorClass(EncodedBodyError, 'EncodedBodyError');
  }

  readonly code = 'ENCODED_BODY' as const;
  /** The `Content-Encoding` header as the message carried it (at most 64 characters). */
  readonly contentEncoding: string;

  constructor(contentEncoding: string) {
    const shown = contentEncoding.slice(0, 64);
    super({
      message: `the body has Content-Encoding "${shown}": a fetched body is decoded leniently (cut short, it still ends without an error) and a received one is still encoded, so no digest is given; download with Accept-Encoding: identity`,
    });
    this.contentEncoding = shown;
  }
}
