/**
 * The EICAR anti-virus test file: 68 harmless ASCII bytes that every scanner flags on purpose, for end-to-end
 * tests of an upload path (hash them, look them up, expect `block`). Its digests are {@link EICAR_RECORD}.
 *
 * The bytes are joined at call time from pieces: the whole string written out in this package's files would set
 * off scanners on the package itself.
 */
import type { EICAR_RECORD } from './defaults.js';

const PIECES = ['X5O!P%@AP[4\\PZX54(P^)7CC)7}$', 'EICAR-STANDARD-', 'ANTIVIRUS-TEST-', 'FILE!$H+H*'];

/**
 * A fresh copy of the EICAR test file's bytes (its md5, sha1 and sha256 are those of {@link EICAR_RECORD}).
 * Typed `Uint8Array<ArrayBuffer>` (never a view of a `SharedArrayBuffer`), so TypeScript takes it as a
 * `BlobPart` and a `fetch` body: `new File([eicarTestFile()], 'eicar.txt')`, `fetch(url, { body: eicarTestFile() })`.
 *
 * @example
 * ```ts
 * import { EICAR_RECORD, eicarTestFile } from 'hashscan-sms/sandbox'
 * import { hashBytes } from 'hashscan-sms/hashing'
 * hashBytes(eicarTestFile()) === EICAR_RECORD.sha256 // true: upload it and expect 'block'
 * ```
 */
export function eicarTestFile(): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(PIECES.join(''));
}
