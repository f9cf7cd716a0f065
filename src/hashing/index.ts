/**
 * File, stream and byte digests (MD5, SHA-1, SHA-256) for the hash lookup.
 * @module
 */
export type { Digests } from './digests.js';
export { hashBytes } from './hash-bytes.js';
export { hashFile } from './hash-file.js';
export { type HashedFile, type HashFilesOptions, hashFiles, type UnreadableFile } from './hash-files.js';
export { hashStream } from './hash-stream.js';
