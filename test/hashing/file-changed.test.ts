import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HashScanError } from '../../src/errors/hashscan-error.js';
import { fileChanged } from '../../src/hashing/file-changed.js';
import { hashFile } from '../../src/hashing/hash-file.js';
import { hashFiles } from '../../src/hashing/hash-files.js';
import { decide } from '../../src/hashscan/decide.js';
import { json, makeClient, NOT_DETECTED, serveLookup } from '../helpers/hash-lookup.js';
import { useMswServer } from '../helpers/msw.js';
import { type Mutation, readWhileChanged } from '../helpers/mutate-while-read.js';
import { useTempDir } from '../helpers/temp-dir.js';

const server = useMswServer();
const dir = realpathSync(useTempDir('file-changed-'));

/** `read` of a file in this process while a second process changes it. */
function inProcess<T>(name: string, mode: Mutation, read: (path: string) => Promise<T>): Promise<T> {
  return readWhileChanged(dir, name, mode, (path) => ({ pid: process.pid, settled: read(path) }));
}

describe('a file that changes while it is read (FILE_CHANGED)', () => {
  it.each(['truncate', 'append', 'rewrite'] as const)('hashFile rejects when another process does %s', async (mode) => {
    const error = await inProcess(`one-${mode}`, mode, (path) =>
      hashFile(path).then(
        (digest) => digest,
        (failure: unknown) => failure,
      ),
    );
    expect(error).toBeInstanceOf(HashScanError);
    expect(error).toMatchObject({ code: 'FILE_CHANGED' });
    expect((error as Error).message).toMatch(/file changed as we read it/);
  });

  it('hashFiles yields the changed file as an error, and the batch goes on', async () => {
    const still = join(dir, 'still.txt');
    writeFileSync(still, 'still');
    const files = await inProcess('batch', 'append', async (path) => {
      const out = [];
      for await (const file of hashFiles([path, still])) out.push(file);
      return out.sort((a, b) => a.index - b.index);
    });
    expect(files[0]?.error).toMatchObject({ code: 'FILE_CHANGED' });
    expect(files[0]?.error).toBeInstanceOf(HashScanError);
    expect(files[1]?.error).toBeUndefined();
    expect(files[1]).toMatchObject({ size: 5 });
  });

  it('scanFile resolves an error outcome (review) and sends nothing', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const client = makeClient();
    const outcome = await inProcess('scan', 'rewrite', (path) => client.scanFile(path));
    expect(outcome).toMatchObject({ verdict: 'error', hash: '', error: { code: 'FILE_CHANGED' } });
    expect(decide(outcome)).toBe('review');
    expect(requests).toHaveLength(0);
  });
});

describe('fileChanged', () => {
  const before = { size: 10n, mtimeNs: 5n, ctimeNs: 7n };
  it('holds a file read whole and the same after as before as unchanged', () => {
    expect(fileChanged(before, 10, { ...before })).toBeUndefined();
  });
  it.each([
    ['a short read', 9, before, /read 9 bytes of the 10/],
    ['a larger size after', 10, { ...before, size: 11n }, /from 10 to 11 bytes/],
    ['a smaller size after', 10, { ...before, size: 4n }, /from 10 to 4 bytes/],
    ['another mtime', 10, { ...before, mtimeNs: 6n }, /modification time/],
    ['another ctime', 10, { ...before, ctimeNs: 8n }, /change time/],
  ])('names %s', (_, read, after, message) => {
    expect(fileChanged(before, read, after)).toMatchObject({
      code: 'FILE_CHANGED',
      message: expect.stringMatching(message),
    });
  });
});
