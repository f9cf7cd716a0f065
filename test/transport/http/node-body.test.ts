import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { IncomingResponse } from '../../../src/transport/call/exchange.js';
import { ResponseTooLargeError, readNodeBody } from '../../../src/transport/http/body-limit.js';
import { promptly } from '../../../src/transport/http/prompt-abort.js';

// readNodeBody reads undici's body through its events (the dispatcher path);
// the loopback tests in body-limit.test.ts cover it on real sockets.

const bytes = (...parts: number[][]): Buffer[] => parts.map((part) => Buffer.from(part));

describe('readNodeBody', () => {
  it('decodes like Response.text(): a leading BOM dropped, a character split across chunks kept whole', async () => {
    const chunks = bytes([0xef, 0xbb, 0xbf, 0x68, 0xc3], [0xa9], [0x6c, 0x6c, 0x6f]);
    await expect(readNodeBody(Readable.from(chunks), 100, 200)).resolves.toBe('héllo');
    await expect(readNodeBody(Readable.from(chunks), 100, 200)).resolves.toBe(
      await new Response(Buffer.concat(chunks)).text(),
    );
  });

  it('an empty body is the empty string; a bad sequence becomes U+FFFD', async () => {
    await expect(readNodeBody(Readable.from([]), 10, 200)).resolves.toBe('');
    await expect(readNodeBody(Readable.from(bytes([0x61, 0xff, 0x62])), 10, 200)).resolves.toBe('a\ufffdb');
  });

  it('property: any split of any bytes reads as Response.text() reads the whole', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 16 }), { maxLength: 6 }), async (parts) => {
        const chunks = parts.map((part) => Buffer.from(part));
        const expected = await new Response(Buffer.concat(chunks)).text();
        expect(await readNodeBody(Readable.from(chunks), 1_000, 200)).toBe(expected);
      }),
    );
  });

  it('exactly the limit is read; one byte more destroys the stream and rejects with the status', async () => {
    await expect(readNodeBody(Readable.from(bytes([0x31, 0x32], [0x33])), 3, 200)).resolves.toBe('123');
    const stream = Readable.from(bytes([0x31, 0x32], [0x33, 0x34], [0x35]));
    const error = await readNodeBody(stream, 3, 502).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limit: 3, status: 502 });
    expect(stream.destroyed).toBe(true);
  });

  it("rejects with the stream's error (a body broken off)", async () => {
    const stream = new Readable({ read() {} });
    const reading = readNodeBody(stream, 100, 200);
    stream.push(Buffer.from('{"a"'));
    const broken = new Error('terminated');
    stream.destroy(broken);
    await expect(reading).rejects.toBe(broken);
  });

  it('reads any other async iterable (a hand-written dispatcher) with the same limit', async () => {
    async function* body(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('ab');
      yield Buffer.from('c');
    }
    await expect(readNodeBody(body(), 3, 200)).resolves.toBe('abc');
    await expect(readNodeBody(body(), 2, 200)).rejects.toBeInstanceOf(ResponseTooLargeError);
  });
});

describe('promptly', () => {
  it('rejects at once when aborted, even if the sender never settles, and passes the reason on', async () => {
    const abort = vi.fn();
    const sending = promptly({ response: new Promise<IncomingResponse>(() => {}), abort });
    const reason = new Error('stop');
    sending.abort(reason);
    await expect(sending.response).rejects.toThrow('aborted');
    expect(abort).toHaveBeenCalledWith(reason);
  });

  it("settles as the sender's response does when not aborted", async () => {
    const response: IncomingResponse = { status: 200, headers: new Headers(), text: '{}', attempt: 1 };
    await expect(promptly({ response: Promise.resolve(response), abort: vi.fn() }).response).resolves.toBe(response);
    const failure = new Error('fetch failed');
    await expect(promptly({ response: Promise.reject(failure), abort: vi.fn() }).response).rejects.toBe(failure);
  });
});
