import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHashLine } from '../../../src/cli/hash-lines.js';
import { byteLines, type RawLine } from '../../../src/cli/input/byte-lines.js';

async function linesOf(chunks: readonly Buffer[], limit: number): Promise<RawLine[]> {
  async function* input(): AsyncGenerator<Buffer> {
    yield* chunks;
  }
  const lines: RawLine[] = [];
  for await (const batch of byteLines(input(), limit)) lines.push(...batch);
  return lines;
}

/** What a line is, read whole: split on `\n`, one `\r` before it dropped, a last empty piece not a line. */
function expected(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i += 1) {
    if (i < bytes.length && bytes[i] !== 0x0a) continue;
    if (i === bytes.length && start === i) break;
    const end = i > start && bytes[i - 1] === 0x0d && i < bytes.length ? i - 1 : i;
    lines.push(bytes.subarray(start, i === bytes.length && bytes[i - 1] === 0x0d ? i - 1 : end));
    start = i + 1;
  }
  return lines;
}

const chunked = fc
  .tuple(fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat({ max: 300 }), { maxLength: 6 }))
  .map(([bytes, cuts]) => {
    const data = Buffer.from(bytes.map((byte) => (byte % 7 === 0 ? 0x0a : byte % 11 === 0 ? 0x0d : byte)));
    const points = [...new Set(cuts.map((cut) => cut % (data.length + 1)))].sort((a, b) => a - b);
    const chunks: Buffer[] = [];
    let from = 0;
    for (const point of [...points, data.length]) {
      if (point > from) chunks.push(data.subarray(from, point));
      from = Math.max(from, point);
    }
    return { data, chunks };
  });

describe('byteLines', () => {
  it('gives the same lines however the bytes are cut into chunks, each line in place in its chunk or copied whole', async () => {
    await fc.assert(
      fc.asyncProperty(chunked, async ({ data, chunks }) => {
        const lines = await linesOf(chunks, 1 << 20);
        expect(lines.map((line) => Buffer.from(line.bytes.subarray(line.start, line.end)))).toEqual(expected(data));
        expect(lines.map((line) => line.number)).toEqual(lines.map((_, i) => i + 1));
        for (const line of lines) expect(line.length).toBe(line.end - line.start);
      }),
    );
  });

  it('keeps at most `limit` bytes of a line, with its full length', async () => {
    await fc.assert(
      fc.asyncProperty(chunked, fc.integer({ min: 1, max: 40 }), async ({ data, chunks }, limit) => {
        const lines = await linesOf(chunks, limit);
        const whole = expected(data);
        expect(lines).toHaveLength(whole.length);
        for (const [i, line] of lines.entries()) {
          const full = whole[i] as Buffer;
          expect(line.end - line.start).toBeLessThanOrEqual(
            Math.max(limit, full.length <= limit ? full.length : limit),
          );
          if (full.length <= limit) expect(Buffer.from(line.bytes.subarray(line.start, line.end))).toEqual(full);
          else expect(line.length).toBeGreaterThan(limit);
        }
      }),
    );
  });
});

describe('parseHashLine within a chunk', () => {
  it('reads a line in place exactly as the same bytes on their own', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.nat(), fc.nat(), (bytes, a, b) => {
        const buffer = Buffer.from(bytes);
        const [from, to] = [a % (buffer.length + 1), b % (buffer.length + 1)].sort((x, y) => x - y) as [number, number];
        const inPlace = parseHashLine(buffer, 7, to - from, from, to);
        const alone = parseHashLine(Buffer.from(buffer.subarray(from, to)), 7, to - from);
        expect(inPlace).toEqual(alone);
      }),
    );
  });
});
