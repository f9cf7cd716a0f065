import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRunInput } from '../../../src/cli/queue/run-input.js';

const hashes = (count: number, fill: string) =>
  Array.from({ length: count }, (_, i) => `${fill.repeat(62)}${String(i).padStart(2, '0')}`);
/** A whole second: a file's time put back exactly (a `Date` has no sub-millisecond part). */
const MTIME = new Date('2026-01-02T03:04:05Z');
const noStdin = Readable.from([]) as NodeJS.ReadableStream;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hashscan-sms-run-input-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function all<T>(chunks: AsyncIterable<T[]>): Promise<T[][]> {
  const out: T[][] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

/** A file of `count` hashes at a fixed time, opened as a run's input; then rewritten with `after`'s (the time put back unless `touched`). */
async function openedThenRewritten(
  count: number,
  fills: { readonly before: string; readonly after: string; readonly afterCount?: number; readonly touched?: boolean },
  chunkSize: number,
  keptLines?: number,
) {
  const path = join(dir, 'in.txt');
  await writeFile(path, `${hashes(count, fills.before).join('\n')}\n`);
  await utimes(path, MTIME, MTIME);
  const input = await openRunInput({ positionals: [], input: path, chunkSize, nul: false }, noStdin, keptLines);
  await writeFile(path, `${hashes(fills.afterCount ?? count, fills.after).join('\n')}\n`);
  if (fills.touched !== true) await utimes(path, MTIME, MTIME);
  return input;
}

describe("a queued run's input", () => {
  it('is not read again when it is short and its file unchanged: every pass gives the chunks of the first read', async () => {
    // Rewritten behind the file's back (same size, same inode, its time put back): the kept lines are not read again.
    const input = await openedThenRewritten(10, { before: 'a', after: 'b' }, 4);
    expect(input.meta).toMatchObject({ lines: 10, chunks: 3 });
    for (let pass = 0; pass < 2; pass += 1) {
      const chunks = await all(input.chunks());
      expect(chunks.map((chunk) => chunk.length)).toEqual([4, 4, 2]);
      expect(chunks.flat().map((line) => [line.line, line.hash])).toEqual(
        hashes(10, 'a').map((hash, i) => [i + 1, hash]),
      );
    }
    await input.close();
  });

  it('is read again when its file changed since the first read (a change the producer then says)', async () => {
    const input = await openedThenRewritten(10, { before: 'a', after: 'b', afterCount: 6, touched: true }, 4);
    expect((await all(input.chunks())).flat().map((line) => line.hash)).toEqual(hashes(6, 'b'));
    await input.close();
  });

  it('is read again, chunk by chunk, when it is longer than what is kept', async () => {
    const input = await openedThenRewritten(10, { before: 'a', after: 'b' }, 4, 9);
    expect(input.meta).toMatchObject({ lines: 10, chunks: 3 });
    const chunks = await all(input.chunks());
    expect(chunks.map((chunk) => chunk.length)).toEqual([4, 4, 2]);
    expect(chunks.flat().map((line) => line.hash)).toEqual(hashes(10, 'b'));
    await input.close();
  });

  it('keeps chunks of one line, and an input of exactly the lines kept', async () => {
    const input = await openedThenRewritten(3, { before: 'c', after: 'd' }, 1, 3);
    expect((await all(input.chunks())).map((chunk) => chunk.map((line) => line.hash))).toEqual(
      hashes(3, 'c').map((hash) => [hash]),
    );
    await input.close();
  });
});
