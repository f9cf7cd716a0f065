/**
 * `hashscan-sms/hashing`: file, stream and byte digests (MD5, SHA-1,
 * SHA-256) for the hash lookup, also exported by the package root. This
 * entry loads none of the clients' dependencies (zod, ky,
 * lru-cache): a script that only hashes starts in a few milliseconds.
 *
 * @example
 * ```ts
 * import { hashFiles } from 'hashscan-sms/hashing'
 * for await (const file of hashFiles(paths)) console.log(file.path, file.error?.code ?? file.digests.sha256)
 * ```
 *
 * @packageDocumentation
 */

export { EncodedBodyError } from '../errors/encoded-body-error.js';
export { TruncatedStreamError } from '../errors/truncated-stream-error.js';
export type { Digests } from './digests.js';
export type { HashAlgorithm } from './hash-algorithm.js';
export { hashBytes } from './hash-bytes.js';
export { hashFile } from './hash-file.js';
export {
  type FilePath,
  type HashedFile,
  type HashFilesOptions,
  hashFiles,
  type UnreadableFile,
} from './hash-files.js';
export { hashStream } from './hash-stream.js';
export { type HashUploadOptions, hashUpload, type UploadBody } from './hash-upload.js';
