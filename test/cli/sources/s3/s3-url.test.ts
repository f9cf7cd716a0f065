import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isS3Argument, parseS3Argument, s3Name } from '../../../../src/cli/sources/s3/s3-url.js';
import { UsageError } from '../../../../src/cli/usage-error.js';

describe('parseS3Argument', () => {
  it('splits the bucket from the prefix; the prefix keeps every character after the first slash', () => {
    const bucket = fc.stringMatching(/^[a-z0-9][a-z0-9.-]{2,62}$/);
    fc.assert(
      fc.property(bucket, fc.string(), (name, prefix) => {
        const argument = s3Name(name, prefix);
        expect(isS3Argument(argument)).toBe(true);
        expect(parseS3Argument(argument)).toEqual({ bucket: name, prefix });
      }),
    );
    expect(parseS3Argument('s3://bucket')).toEqual({ bucket: 'bucket', prefix: '' });
  });

  it.each(['s3://', 's3:///key', 's3://a/b', 's3://bad bucket/x', 's3://-x/'])('%j is a usage error', (argument) => {
    expect(() => parseS3Argument(argument)).toThrow(UsageError);
  });

  it('a local path is not an s3 argument', () => {
    expect(isS3Argument('./s3://x')).toBe(false);
    expect(isS3Argument('S3://bucket')).toBe(false);
  });
});
