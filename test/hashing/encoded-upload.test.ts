import { createHash, randomBytes } from 'node:crypto';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EncodedBodyError, hashUpload } from '../../src/hashing/index.js';
import { type Loopback, startLoopback } from '../helpers/loopback.js';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
/** Text-like content (it compresses) with random bytes in it (so a cut stream has decoded some of it). */
const FILE = Buffer.concat(Array.from({ length: 64 }, () => Buffer.from(`${randomBytes(512).toString('hex')}\n`)));
const ENCODE = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync } as const;
type Coding = keyof typeof ENCODE;

let server: Loopback;

beforeAll(async () => {
  // GET /<coding>/<whole|cut>: the file in that coding, whole or cut at half its compressed bytes, with a
  // Content-Length that matches what is sent (so HTTP framing is complete and only the coding is cut).
  // A request with Accept-Encoding: identity gets the plain file.
  server = await startLoopback((request, response) => {
    const [, coding, part] = (request.url ?? '').split('/') as [string, Coding, string];
    if (request.headers['accept-encoding'] === 'identity') {
      response.writeHead(200, { 'content-length': FILE.length }).end(FILE);
      return;
    }
    const encoded = ENCODE[coding](FILE);
    const sent = part === 'cut' ? encoded.subarray(0, encoded.length >> 1) : encoded;
    response.writeHead(200, { 'content-encoding': coding, 'content-length': sent.length }).end(sent);
  });
});
afterAll(() => server.close());

describe('hashUpload of an encoded body, through real fetch', () => {
  const maxBytes = 10 * FILE.length;

  it.each(['gzip', 'deflate', 'br'] as const)('refuses a %s body cut short, and a whole one', async (coding) => {
    for (const part of ['cut', 'whole']) {
      const response = await fetch(`${server.url}/${coding}/${part}`);
      const error = await hashUpload(response, { maxBytes }).catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(EncodedBodyError);
      expect(error).toMatchObject({ code: 'ENCODED_BODY', contentEncoding: coding });
    }
  });

  it('hashes the file fetched with Accept-Encoding: identity', async () => {
    const response = await fetch(`${server.url}/gzip/whole`, { headers: { 'accept-encoding': 'identity' } });
    expect(await hashUpload(response, { maxBytes })).toBe(sha256(FILE));
  });

  it('refuses a received Request whose body is still encoded, and takes Content-Encoding: identity', async () => {
    const gzipped = gzipSync(FILE);
    const request = new Request('https://upload.test/', {
      method: 'POST',
      body: gzipped,
      headers: { 'content-encoding': 'GZIP ' },
    });
    await expect(hashUpload(request, { maxBytes })).rejects.toBeInstanceOf(EncodedBodyError);
    const plain = new Response(FILE, { headers: { 'content-encoding': 'identity' } });
    expect(await hashUpload(plain, { maxBytes })).toBe(sha256(FILE));
  });
});
