import * as root from 'hashscan-sms';
import * as hashing from 'hashscan-sms/hashing';
import * as signing from 'hashscan-sms/signing';
import { describe, expect, expectTypeOf, it } from 'vitest';

// [name, the root's export, the new entry's]: first the deprecated aliases, then the digest functions a first
// user needs, which stay in the root (not deprecated) and are in `hashscan-sms/hashing` too.
const SAME = [
  ['canonicalQuery', root.canonicalQuery, signing.canonicalQuery],
  ['computeSignature', root.computeSignature, signing.computeSignature],
  ['explainSignature', root.explainSignature, signing.explainSignature],
  ['maskedStringToSign', root.maskedStringToSign, signing.maskedStringToSign],
  ['percentEncode', root.percentEncode, signing.percentEncode],
  ['stringToSign', root.stringToSign, signing.stringToSign],
  ['verifySignature', root.verifySignature, signing.verifySignature],
  ['hashFiles', root.hashFiles, hashing.hashFiles],
  ['hashFile', root.hashFile, hashing.hashFile],
  ['hashStream', root.hashStream, hashing.hashStream],
  ['hashUpload', root.hashUpload, hashing.hashUpload],
  ['hashBytes', root.hashBytes, hashing.hashBytes],
  ['TruncatedStreamError', root.TruncatedStreamError, hashing.TruncatedStreamError],
  ['EncodedBodyError', root.EncodedBodyError, hashing.EncodedBodyError],
] as const;

describe('the root entry keeps the names that moved, as the same objects', () => {
  it.each(SAME)('%s: the root exports the very object its entry exports', (_name, inRoot, inEntry) => {
    expect(typeof inEntry).toBe('function');
    expect(inRoot).toBe(inEntry);
  });

  it('the signing entry throws the error class the root exports', () => {
    expect(signing.SigningError).toBe(root.SigningError);
    expect(() => signing.canonicalQuery({ key: '\uD800' })).toThrow(root.SigningError);
  });

  it('an old call through the root still signs as the new entry does', () => {
    const params = { Action: 'SendSms', AccessKeyId: 'id', b: 'x y' };
    expect(root.computeSignature('POST', params, 'secret')).toBe(signing.computeSignature('POST', params, 'secret'));
    expect(
      root.verifySignature('POST', { ...params, Signature: signing.computeSignature('POST', params, 's') }, 's'),
    ).toBe(true);
  });

  it('the deprecated type aliases are the types of the new entries (checked by tsc)', () => {
    expectTypeOf<root.SignatureExplanation>().toEqualTypeOf<signing.SignatureExplanation>();
    expectTypeOf<root.FilePath>().toEqualTypeOf<hashing.FilePath>();
    expectTypeOf<root.HashedFile<'md5', Buffer>>().toEqualTypeOf<hashing.HashedFile<'md5', Buffer>>();
    expectTypeOf<root.HashFilesOptions<'sha1'>>().toEqualTypeOf<hashing.HashFilesOptions<'sha1'>>();
    expectTypeOf<root.UnreadableFile>().toEqualTypeOf<hashing.UnreadableFile>();
    expectTypeOf(root.hashFiles).toEqualTypeOf(hashing.hashFiles);
  });
});
