import type { DigestSource } from '../entry.js';

/** What HeadObject (asked with `ChecksumMode: 'ENABLED'`) says of an object, as far as its digests go. */
export interface HeadFacts {
  /** Quotes removed. */
  readonly etag: string;
  readonly checksumSha256: string | undefined;
  /** `FULL_OBJECT` or `COMPOSITE` (a checksum of the parts' checksums, not of the bytes). */
  readonly checksumType: string | undefined;
  /** `AES256` (SSE-S3), `aws:kms`, `aws:kms:dsse`; `undefined`: none. */
  readonly serverSideEncryption: string | undefined;
  /** Set for SSE-C (a key the client holds). */
  readonly sseCustomerAlgorithm: string | undefined;
}

/** The digests a store holds that are provably the object's own, and which one to name as the source. */
export interface StoredDigests {
  readonly digests: { readonly sha256?: string; readonly md5?: string };
  readonly source: Exclude<DigestSource, 'download'>;
}

// A SHA-256 is 32 bytes: 43 base64 characters and one '='. A COMPOSITE one ends in `-N`, and fails this.
const SHA256_BASE64 = /^[A-Za-z0-9+/]{43}=$/;
const MD5_HEX = /^[0-9a-fA-F]{32}$/;

/**
 * A SHA-256 checksum counts only when its type is `FULL_OBJECT`: a `COMPOSITE` one is a digest of
 * the parts' digests. An ETag counts as the MD5 only when it is 32 hex digits (a multipart
 * upload's ends in `-N`), the object is not a multipart upload (a `COMPOSITE` checksum says it is),
 * and it is stored in plain or with SSE-S3: under SSE-KMS or SSE-C the ETag is not the MD5 of the
 * bytes. Anything else: `undefined`, and the object is downloaded.
 */
export function storedDigests(head: HeadFacts): StoredDigests | undefined {
  const sha256 =
    head.checksumType === 'FULL_OBJECT' && head.checksumSha256 !== undefined && SHA256_BASE64.test(head.checksumSha256)
      ? Buffer.from(head.checksumSha256, 'base64').toString('hex')
      : undefined;
  const plain = head.serverSideEncryption === undefined || head.serverSideEncryption === 'AES256';
  const md5 =
    MD5_HEX.test(head.etag) && plain && head.sseCustomerAlgorithm === undefined && head.checksumType !== 'COMPOSITE'
      ? head.etag.toLowerCase()
      : undefined;
  if (sha256 !== undefined) {
    return { digests: md5 === undefined ? { sha256 } : { sha256, md5 }, source: 'checksum-sha256' };
  }
  return md5 === undefined ? undefined : { digests: { md5 }, source: 'etag-md5' };
}

/** An ETag without its quotes (`"…"`, and a weak `W/"…"` that some stores send). */
export function bareEtag(etag: string): string {
  return etag.replace(/^(W\/)?"(.*)"$/, '$2');
}
