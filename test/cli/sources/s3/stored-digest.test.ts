import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bareEtag, type HeadFacts, storedDigests } from '../../../../src/cli/sources/s3/stored-digest.js';

const bytes = Buffer.from('some object');
const MD5 = createHash('md5').update(bytes).digest('hex');
const SHA256 = createHash('sha256').update(bytes);
const SHA256_HEX = SHA256.copy().digest('hex');
const SHA256_BASE64 = SHA256.digest('base64');
const head = (facts: Partial<HeadFacts>): HeadFacts => ({
  etag: MD5,
  checksumSha256: undefined,
  checksumType: undefined,
  serverSideEncryption: undefined,
  sseCustomerAlgorithm: undefined,
  ...facts,
});

describe('storedDigests', () => {
  it('takes a FULL_OBJECT SHA-256 checksum (as hex), and the MD5 ETag beside it', () => {
    expect(storedDigests(head({ checksumSha256: SHA256_BASE64, checksumType: 'FULL_OBJECT' }))).toEqual({
      digests: { sha256: SHA256_HEX, md5: MD5 },
      source: 'checksum-sha256',
    });
    expect(
      storedDigests(head({ etag: `${MD5}-2`, checksumSha256: SHA256_BASE64, checksumType: 'FULL_OBJECT' })),
    ).toEqual({ digests: { sha256: SHA256_HEX }, source: 'checksum-sha256' });
  });

  it('never takes a COMPOSITE checksum or one of no stated type, nor an ETag beside a COMPOSITE checksum', () => {
    expect(
      storedDigests(head({ etag: `${MD5}-3`, checksumSha256: `${SHA256_BASE64}-3`, checksumType: 'COMPOSITE' })),
    ).toBe(undefined);
    expect(storedDigests(head({ checksumSha256: SHA256_BASE64, checksumType: 'COMPOSITE' }))).toBeUndefined();
    expect(storedDigests(head({ etag: `${MD5}-1`, checksumSha256: SHA256_BASE64 }))).toBeUndefined();
  });

  it('takes the ETag as the MD5 only for 32 hex digits, stored in plain or with SSE-S3', () => {
    expect(storedDigests(head({}))).toEqual({ digests: { md5: MD5 }, source: 'etag-md5' });
    expect(storedDigests(head({ etag: MD5.toUpperCase(), serverSideEncryption: 'AES256' }))).toEqual({
      digests: { md5: MD5 },
      source: 'etag-md5',
    });
    for (const facts of [
      { etag: `${MD5}-2` },
      { etag: MD5.slice(1) },
      { serverSideEncryption: 'aws:kms' },
      { serverSideEncryption: 'aws:kms:dsse' },
      { sseCustomerAlgorithm: 'AES256' },
    ]) {
      expect(storedDigests(head(facts))).toBeUndefined();
    }
  });

  it('a SHA-256 checksum whatever its bytes is taken back to the same hex', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (digest) => {
        const value = Buffer.from(digest);
        const stored = storedDigests(
          head({ etag: 'opaque', checksumSha256: value.toString('base64'), checksumType: 'FULL_OBJECT' }),
        );
        expect(stored?.digests.sha256).toBe(value.toString('hex'));
      }),
    );
  });

  it('bareEtag removes quotes, strong or weak', () => {
    expect(bareEtag(`"${MD5}"`)).toBe(MD5);
    expect(bareEtag(`W/"${MD5}"`)).toBe(MD5);
    expect(bareEtag(MD5)).toBe(MD5);
  });
});
