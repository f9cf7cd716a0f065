import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ResponseTooLargeError, readNodeBody, readWebBody } from '../../../src/transport/http/body-limit.js';

// The counted body readers against `Response.text()`: the same text for any
// bytes (a leading BOM, a character cut between chunks, invalid sequences),
// however the body is split into chunks.

/** `bytes` cut at `cuts` (offsets, any order). */
function split(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const to of [...at, bytes.length]) {
    if (to > from) chunks.push(bytes.subarray(from, to));
    from = Math.max(from, to);
  }
  return chunks;
}

const webStream = (chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> =>
  new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });

async function* iterable(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* chunks;
}

const body = fc.tuple(
  fc.boolean(),
  fc.oneof(
    fc.string({ unit: 'binary' }).map((text) => new TextEncoder().encode(text)),
    fc.uint8Array({ maxLength: 64 }),
  ),
  fc.array(fc.nat(), { maxLength: 6 }),
);

describe('counted body text', () => {
  it('is what Response.text() makes of the same bytes, however they are split', async () => {
    await fc.assert(
      fc.asyncProperty(body, async ([bom, content, cuts]) => {
        const bytes = bom ? new Uint8Array([0xef, 0xbb, 0xbf, ...content]) : content;
        const expected = await new Response(bytes).text();
        const chunks = split(bytes, cuts);
        expect(await readWebBody(webStream(chunks), 1_000, 200)).toBe(expected);
        expect(await readNodeBody(iterable(chunks), 1_000, 200)).toBe(expected);
      }),
    );
  });

  it('refuses a body past the limit, however it is split', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 11, maxLength: 64 }), fc.array(fc.nat()), async (bytes, cuts) => {
        const chunks = split(bytes, cuts);
        await expect(readWebBody(webStream(chunks), 10, 200)).rejects.toBeInstanceOf(ResponseTooLargeError);
        await expect(readNodeBody(iterable(chunks), 10, 200)).rejects.toBeInstanceOf(ResponseTooLargeError);
      }),
    );
  });
});
