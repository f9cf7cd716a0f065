/**
 * Lookups settled as outcomes instead of rejections: what `decide()` takes,
 * without a `.catch()` at every call site. `HashScanClient.scanOutcome` and
 * `scanFile` delegate here.
 * @module
 */
import { HashScanError } from '../errors/hashscan-error.js';
import type { HashAlgorithm } from '../hashing/hash-algorithm.js';
import { hashFile } from '../hashing/hash-file.js';
import type { ScanOptions } from './scan-options.js';
import type { ScanErrorOutcome, ScanOutcome, ScanResult } from './scan-result.js';

/** A `scan()` with its per-call options already bound. */
type Scan = (hash: string) => Promise<ScanResult>;

/**
 * Options of `HashScanClient.scanFile`.
 *
 * @example
 * ```ts
 * await client.scanFile(upload.path, { algorithm: 'sha256', signal: request.signal, totalTimeoutMs: 3_000 })
 * ```
 */
export interface ScanFileOptions extends ScanOptions {
  /** Digest to compute and look up. The spec prefers SHA-256. @defaultValue `'sha256'` */
  readonly algorithm?: HashAlgorithm | undefined;
}

/** The outcome of `scanFile`: the lookup's outcome and the file it is about. */
export type FileScanOutcome = ScanOutcome & {
  /** The path that was given. */
  readonly path: string;
};

/** Any failure as the `error` outcome of `hash` (a `HashScanError` passes through). */
export function errorOutcome(hash: string, error: unknown): ScanErrorOutcome {
  const scanError =
    error instanceof HashScanError
      ? error
      : new HashScanError({ code: 'INVALID_RESPONSE', message: 'unexpected failure', cause: error, hash });
  return { verdict: 'error', hash: scanError.hash ?? hash, error: scanError };
}

/** `scan(hash)` that resolves every failure as an `error` outcome. */
export async function settleScan(scan: Scan, hash: string): Promise<ScanOutcome> {
  try {
    return await scan(hash);
  } catch (error) {
    return errorOutcome(typeof hash === 'string' ? hash : '', error);
  }
}

/** The `code` of a file-system error (`ENOENT`, `EISDIR`, …), read without trusting its shape. */
function errnoCode(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : 'unknown error';
}

/**
 * Hashes a file (streamed) and looks the digest up, as one outcome. A file
 * that cannot be read is a `FILE_UNREADABLE` error outcome with an empty
 * `hash`, one that changed while it was read a `FILE_CHANGED` one; either
 * way nothing is sent.
 */
export async function scanFileWith(
  scan: Scan,
  path: string,
  options: Pick<ScanFileOptions, 'algorithm'> = {},
): Promise<FileScanOutcome> {
  if (typeof path !== 'string' || path === '') {
    const error = new HashScanError({ code: 'FILE_UNREADABLE', message: 'scanFile: path must be a non-empty string' });
    return { verdict: 'error', hash: '', error, path: '' };
  }
  let digest: string;
  try {
    digest = await hashFile(path, options.algorithm);
  } catch (cause) {
    // Read, but not one file's bytes: its own code, so a caller can hash it again once it is still.
    if (cause instanceof HashScanError && cause.code === 'FILE_CHANGED') {
      return { verdict: 'error', hash: '', error: cause, path };
    }
    const message = `could not read the file to hash it (${errnoCode(cause)}); nothing was sent`;
    return { verdict: 'error', hash: '', error: new HashScanError({ code: 'FILE_UNREADABLE', message, cause }), path };
  }
  return { ...(await settleScan(scan, digest)), path };
}
