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
import { type Mutation, sparseFile, startMutator } from '../helpers/mutate-while-read.js';
import { useTempDir } from '../helpers/temp-dir.js';

const server = useMswServer();
const dir = realpathSync(useTempDir('file-changed-'));
/** Large enough that the read is still under way when the second process acts. */
const SIZE = 128 * 1024 * 1024;

/**
 * Reads a fresh big file with `read` in this process while a second process changes it (`mode`) once
 * the read is under way; tries again when that process saw the read too late to prove anything.
 */
async function readWhileChanged<T>(name: string, mode: Mutation, read: (path: string) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const path = join(dir, `${name}-${attempt}.bin`);
    sparseFile(path, SIZE);
    const mutator = await startMutator(path, mode);
    mutator.watch(process.pid);
    const settled = await read(path);
    const did = await mutator.result;
    if (did.startsWith('changed at ')) return settled;
    if ((did !== 'missed' && did !== 'late') || attempt === 5)
      throw new Error(`the second process did not change the file: ${did}`);
  }
}

describe('a file that changes while it is read (FILE_CHANGED)', () => {
  it.each(['truncate', 'append', 'rewrite'] as const)('hashFile rejects when another process does %s', async (mode) => {
    const error = await readWhileChanged(`one-${mode}`, mode, (path) =>
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
    const files = await readWhileChanged('batch', 'append', async (path) => {
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
    const outcome = await readWhileChanged('scan', 'rewrite', (path) => client.scanFile(path));
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
