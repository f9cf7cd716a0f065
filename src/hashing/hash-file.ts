import { checkAlgorithm, checkAlgorithms, DigestSet, type Digests } from './digests.js';
import { ReadBuffers, readInto, requireFileSystem } from './file-reader.js';
import type { HashAlgorithm } from './hash-algorithm.js';

/**
 * Reads a file once and returns its lower-case hex digest, or several
 * digests from the same read. Memory stays at two 2 MiB read buffers
 * whatever the file size. SHA-256 is the default, as the spec prefers it;
 * reuse a digest you already have rather than hashing again.
 *
 * @param path - The file to read.
 * @param algorithm - `'sha256'` (default), `'sha1'` or `'md5'`; or an array of them for several digests in one read.
 * @throws `TypeError` for an unknown algorithm; the `fs` error (`ENOENT`, `EACCES`, `EISDIR`, …) when the file cannot be read;
 *   a `HashScanError` with code `FILE_CHANGED` when the file changed while it was read (a short read, or a size,
 *   mtime or ctime after the read different from before it): never a digest of bytes that never were the file.
 *
 * @example
 * ```ts
 * const verdict = await client.scan(await hashFile('/uploads/report.pdf'))
 * const { sha256, md5 } = await hashFile('/uploads/report.pdf', ['sha256', 'md5'])
 * ```
 */
export async function hashFile(path: string, algorithm?: HashAlgorithm): Promise<string>;
export async function hashFile<A extends HashAlgorithm>(path: string, algorithms: readonly A[]): Promise<Digests<A>>;
export async function hashFile(
  path: string,
  algorithm: HashAlgorithm | readonly HashAlgorithm[] = 'sha256',
): Promise<string | Digests> {
  requireFileSystem('hashFile');
  if (Array.isArray(algorithm)) {
    return (await digestFile(path, checkAlgorithms(algorithm, 'hashFile'), new ReadBuffers())).digests;
  }
  const one = checkAlgorithm(algorithm, 'hashFile');
  return (await digestFile(path, [one], new ReadBuffers())).digests[one];
}

/** The digests of one file and how many bytes they cover. */
export interface FileDigests {
  readonly digests: Record<HashAlgorithm, string>;
  readonly size: number;
}

/** `hashFile` with checked algorithms and caller-owned buffers (a folder walk reuses them). */
export async function digestFile(
  path: string | Buffer,
  algorithms: readonly HashAlgorithm[],
  buffers: ReadBuffers,
): Promise<FileDigests> {
  const set = new DigestSet(algorithms);
  const size = await readInto(path, set, buffers);
  return { digests: set.digests(), size };
}
