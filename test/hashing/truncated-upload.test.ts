import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { Busboy, type BusboyFileStream } from '@fastify/busboy';
import { describe, expect, it } from 'vitest';
import { HashScanSmsError, hashStream, TruncatedStreamError } from '../../src/index.js';

const BOUNDARY = '----hashscan-test-boundary';

/** A multipart/form-data body with one file part, as a browser sends an upload. */
function multipartBody(file: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="upload"; filename="report.pdf"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/**
 * Parses the body with busboy (the parser under @fastify/multipart), `limits.fileSize` as given,
 * and hashes the file part with `hashStream` the way an upload handler does.
 */
function hashUpload(file: Buffer, fileSize: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const busboy = new Busboy({
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      limits: { fileSize },
    });
    busboy.on('file', (_field: string, stream: BusboyFileStream) => {
      hashStream(stream).then(resolve, reject);
    });
    busboy.on('error', reject);
    Readable.from([multipartBody(file)]).pipe(busboy);
  });
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe('hashStream refuses an upload cut at its size limit (busboy sets `truncated`)', () => {
  const file = Buffer.alloc(100, 'x');

  it('a 100-byte upload under limits.fileSize 10 rejects with TruncatedStreamError, not the first 10 bytes’ digest', async () => {
    const error = await hashUpload(file, 10).then(
      (digest) => digest,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(TruncatedStreamError);
    expect(error).toBeInstanceOf(HashScanSmsError);
    expect(error).toMatchObject({ code: 'TRUNCATED_STREAM', bytesRead: 10, attempts: 0 });
    expect(error).not.toBe(sha256(file.subarray(0, 10)));
  });

  it('the same upload within the limit hashes as the whole file', async () => {
    expect(await hashUpload(file, 1000)).toBe(sha256(file));
    expect(await hashUpload(file, 100)).toBe(sha256(file)); // exactly at the limit is whole
  });

  it('any stream reporting `truncated: true` at its end is refused; `false` or absent is not', async () => {
    const cut = Object.assign(Readable.from([Buffer.from('abc')]), { truncated: false });
    cut.on('end', () => {
      cut.truncated = true; // as multer and @fastify/multipart leave it once the limit was hit
    });
    await expect(hashStream(cut)).rejects.toBeInstanceOf(TruncatedStreamError);
    const whole = Object.assign(Readable.from([Buffer.from('abc')]), { truncated: false });
    expect(await hashStream(whole, 'md5')).toBe(createHash('md5').update('abc').digest('hex'));
  });
});
