import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTextHashLines } from '../../../src/cli/hash-lines.js';
import { withoutByteOrderMark } from '../../../src/cli/input/byte-order-mark.js';
import { UsageError } from '../../../src/cli/usage-error.js';

async function read(chunks: readonly Buffer[]): Promise<Buffer> {
  async function* input(): AsyncGenerator<Buffer> {
    yield* chunks;
  }
  const out: Buffer[] = [];
  for await (const chunk of withoutByteOrderMark(input(), (encoding) => new Error(encoding))) out.push(chunk);
  return Buffer.concat(out);
}

/** `bytes` cut at `cuts`. */
function cut(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const end of [...at, bytes.length]) {
    chunks.push(bytes.subarray(start, end));
    start = end;
  }
  return chunks;
}

const BOM = Buffer.of(0xef, 0xbb, 0xbf);

describe('withoutByteOrderMark', () => {
  it('drops a leading UTF-8 mark however the chunks are cut, and nothing else', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 40 }),
        fc.boolean(),
        fc.array(fc.nat({ max: 50 }), { maxLength: 5 }),
        async (body, marked, cuts) => {
          const rest = Buffer.from(body);
          // A list starting with a mark of its own, or like a UTF-16 one, is the other tests' subject.
          const head = rest.subarray(0, 2).toString('hex');
          fc.pre(!rest.subarray(0, 3).equals(BOM) && head !== 'fffe' && head !== 'feff');
          const input = marked ? Buffer.concat([BOM, rest]) : rest;
          expect((await read(cut(input, cuts))).toString('hex')).toBe(rest.toString('hex'));
        },
      ),
    );
  });

  it('keeps a second mark, and a lone or partial one', async () => {
    expect(await read([Buffer.concat([BOM, BOM])])).toEqual(BOM);
    expect(await read([Buffer.of(0xef, 0xbb)])).toEqual(Buffer.of(0xef, 0xbb));
    expect(await read([Buffer.of(0xef), Buffer.of(0x41)])).toEqual(Buffer.of(0xef, 0x41));
  });

  it('throws at a UTF-16 mark of either order, even cut after its first byte', async () => {
    await expect(read([Buffer.of(0xff), Buffer.of(0xfe, 0x61, 0x00)])).rejects.toThrow('UTF-16LE');
    await expect(read([Buffer.of(0xfe, 0xff, 0x00, 0x61)])).rejects.toThrow('UTF-16BE');
  });
});

describe('readTextHashLines (the input of lookup --queue)', () => {
  const HASH = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

  it('drops a leading UTF-8 mark and refuses a UTF-16 list with a usage error', async () => {
    const lines = [];
    for await (const line of readTextHashLines([Buffer.concat([BOM, Buffer.from(`${HASH}\r\n`)])])) lines.push(line);
    expect(lines).toEqual([{ line: 1, hash: HASH }]);
    const utf16 = readTextHashLines([Buffer.from(`\ufeff${HASH}\n`, 'utf16le')], '--input list.txt');
    await expect(utf16.next()).rejects.toThrow(UsageError);
  });
});
