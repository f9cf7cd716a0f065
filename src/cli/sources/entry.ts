import type { HashAlgorithm, HashedFile } from '../../index.js';
import { nameCells } from '../names.js';
import type { Row } from '../output/index.js';

/**
 * Where an object's looked-up digest came from: a SHA-256 checksum the store kept for the whole
 * object (`checksum-sha256`), its ETag when that is provably the MD5 of its bytes (`etag-md5`),
 * or its bytes, downloaded and hashed (`download`).
 */
export type DigestSource = 'checksum-sha256' | 'etag-md5' | 'download';

/**
 * What identifies one version of an object, for an inventory to tell "the same object, unchanged"
 * from "changed": a later run that finds the same record need not look at the object again.
 */
export interface ObjectIdentity {
  readonly bucket: string;
  readonly key: string;
  /** The version id, on a bucket with versioning; else `undefined` (the ETag identifies the content). */
  readonly versionId: string | undefined;
  /** The ETag as the store gave it, quotes removed. */
  readonly etag: string;
  readonly size: number;
  /** ISO 8601, from the store's `Last-Modified`; `undefined` when it gave none. */
  readonly lastModified: string | undefined;
}

/** A local file, read and hashed. */
interface FileEntry {
  readonly kind: 'file';
  /** The path as bytes (see `names.ts`). */
  readonly name: Buffer;
  readonly size: number;
  readonly digests: Partial<Record<HashAlgorithm, string>>;
}

/** An object in a bucket, with the digests that are provably its own. */
export interface ObjectEntry {
  readonly kind: 'object';
  /** `s3://bucket/key`. */
  readonly name: string;
  readonly size: number;
  readonly digests: Partial<Record<HashAlgorithm, string>>;
  readonly digestSource: DigestSource;
  readonly identity: ObjectIdentity;
}

/**
 * A thing to scan, whatever its source (an argument path, an `s3://` prefix): its name, size and
 * digests, and for an object where the digest came from and its identity. Every source feeds
 * one pipeline: look up, decide, report.
 */
export type ScanEntry = FileEntry | ObjectEntry;

/** The algorithm of the digest to look up: the first `-a` one where the entry has it, else a stored one (SHA-256 first). */
export function lookupAlgorithm(
  digests: Readonly<Partial<Record<HashAlgorithm, string>>>,
  primary: HashAlgorithm,
): HashAlgorithm | undefined {
  return [primary, 'sha256' as const, 'sha1' as const, 'md5' as const].find((a) => digests[a] !== undefined);
}

/** The digest to look up (see {@link lookupAlgorithm}). */
export function lookupDigest(entry: ScanEntry, primary: HashAlgorithm): string | undefined {
  const algorithm = lookupAlgorithm(entry.digests, primary);
  return algorithm === undefined ? undefined : entry.digests[algorithm];
}

/** The cells of an entry before its lookup's: name, size, digests and, for an object, `digestSource`. */
export function entryCells(entry: ScanEntry): Row {
  const cells: Row = { ...nameCells('path', entry.name), size: entry.size, ...entry.digests };
  return entry.kind === 'object' ? { ...cells, digestSource: entry.digestSource } : cells;
}

/** A local file read and hashed, as an entry of the scan's one pipeline. */
export function fileEntry(file: HashedFile<HashAlgorithm, Buffer>): ScanEntry {
  return { kind: 'file', name: file.path, size: file.size, digests: file.digests };
}

/** A local file's entry as the inventory records it. */
export function hashedFile(entry: ScanEntry & { readonly kind: 'file' }): HashedFile<HashAlgorithm, Buffer> {
  return {
    index: -1,
    path: entry.name,
    size: entry.size,
    digests: entry.digests as HashedFile<HashAlgorithm>['digests'],
  };
}
