import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashUpload, TruncatedStreamError } from '../../src/hashing/index.js';

const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');
const md5 = (bytes: Uint8Array | string): string => createHash('md5').update(bytes).digest('hex');
const BODY = 'x'.repeat(100_000);

/** A stream of `chunks`, recording whether the reader cancelled it. */
function streamOf(chunks: readonly unknown[]): { stream: ReadableStream<Uint8Array>; cancelled: () => boolean } {
  let cancelled = false;
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++] as Uint8Array);
      else controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled };
}

describe('hashUpload (web-standard bodies)', () => {
  const bytes = new TextEncoder().encode(BODY);
  const halves = [bytes.subarray(0, 40_000), bytes.subarray(40_000)];

  it('hashes a ReadableStream, a Blob, a File, a Request and a Response to the digest of their bytes', async () => {
    const maxBytes = bytes.length;
    expect(await hashUpload(streamOf(halves).stream, { maxBytes })).toBe(sha256(bytes));
    expect(await hashUpload(new Blob([bytes]), { maxBytes })).toBe(sha256(bytes));
    expect(await hashUpload(new File([bytes], 'upload.bin'), { maxBytes })).toBe(sha256(bytes));
    const request = new Request('https://upload.test/', { method: 'POST', body: BODY });
    expect(await hashUpload(request, { maxBytes })).toBe(sha256(bytes));
    expect(await hashUpload(new Response(BODY), { maxBytes, algorithm: ['md5', 'sha256'] })).toEqual({
      md5: md5(bytes),
      sha256: sha256(bytes),
    });
    expect(await hashUpload(new Request('https://upload.test/'), { maxBytes: 0 })).toBe(sha256(''));
  });

  it('gives no digest for a body past maxBytes: TruncatedStreamError, and the stream is cancelled', async () => {
    const { stream, cancelled } = streamOf(halves);
    const error = await hashUpload(stream, { maxBytes: bytes.length - 1 }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(TruncatedStreamError);
    expect(error).toMatchObject({ code: 'TRUNCATED_STREAM', bytesRead: 40_000, maxBytes: bytes.length - 1 });
    expect(cancelled()).toBe(true);
    await expect(hashUpload(new Blob([bytes]), { maxBytes: 10 })).rejects.toBeInstanceOf(TruncatedStreamError);
  });

  it('refuses a Content-Length over maxBytes before reading', async () => {
    const { stream } = streamOf(halves);
    const request = new Request('https://upload.test/', {
      method: 'POST',
      body: stream,
      headers: { 'content-length': String(bytes.length) },
      duplex: 'half',
    } as RequestInit);
    await expect(hashUpload(request, { maxBytes: 1000 })).rejects.toMatchObject({
      code: 'TRUNCATED_STREAM',
      bytesRead: 0,
    });
  });

  it('refuses chunks that are not bytes, a used body, a bad limit and an unknown body', async () => {
    await expect(hashUpload(streamOf(['text']).stream, { maxBytes: 10 })).rejects.toThrow(TypeError);
    const used = new Response('abc');
    await used.text();
    await expect(hashUpload(used, { maxBytes: 10 })).rejects.toThrow(/already read/);
    await expect(hashUpload(new Blob(['a']), { maxBytes: -1 })).rejects.toThrow(/maxBytes/);
    await expect(hashUpload(new Blob(['a']), {} as never)).rejects.toThrow(/maxBytes/);
    await expect(hashUpload('body' as never, { maxBytes: 10 })).rejects.toThrow(/ReadableStream/);
  });
});
