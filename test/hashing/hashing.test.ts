import { execFileSync, spawn } from 'node:child_process';
import { createHash, pbkdf2 } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_SIZE, SYNC_READ_LIMIT } from '../../src/hashing/file-reader.js';
import { hashBytes, hashFile, hashFiles, hashStream } from '../../src/hashing/index.js';

const ALGORITHMS = ['md5', 'sha1', 'sha256'] as const;
const reference = (bytes: Uint8Array, algorithm: string): string => createHash(algorithm).update(bytes).digest('hex');

/** Splits bytes at the given cut points: the same content in arbitrary chunks. */
function chunked(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  return chunks;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hashing-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('hashBytes', () => {
  it('equals node:crypto for random bytes, every algorithm, one and several at once', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 4096 }),
        fc.subarray([...ALGORITHMS], { minLength: 1 }),
        (bytes, algorithms) => {
          for (const algorithm of ALGORITHMS) expect(hashBytes(bytes, algorithm)).toBe(reference(bytes, algorithm));
          const all = hashBytes(bytes, algorithms);
          expect(Object.keys(all).sort()).toEqual([...algorithms].sort());
          for (const algorithm of algorithms) expect(all[algorithm]).toBe(reference(bytes, algorithm));
        },
      ),
    );
  });

  it('hashes only the range of a view, and SHA-256 by default', () => {
    const whole = Buffer.from('xxhello worldxx');
    expect(hashBytes(whole.subarray(2, 13))).toBe(reference(Buffer.from('hello world'), 'sha256'));
  });

  it('refuses strings and unknown algorithms with a TypeError', () => {
    expect(() => hashBytes('text' as unknown as Uint8Array)).toThrow(TypeError);
    expect(() => hashBytes(new Uint8Array(1), 'sha512' as 'sha256')).toThrow(/algorithm/);
    expect(() => hashBytes(new Uint8Array(1), [])).toThrow(/non-empty/);
  });
});

describe('hashStream', () => {
  it('equals node:crypto whatever the chunking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 8192 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        async (bytes, cuts) => {
          const chunks = chunked(bytes, cuts);
          expect(await hashStream(Readable.from(chunks))).toBe(reference(bytes, 'sha256'));
          const digests = await hashStream(Readable.from(chunks), ['md5', 'sha1']);
          expect(digests).toEqual({ md5: reference(bytes, 'md5'), sha1: reference(bytes, 'sha1') });
        },
      ),
      { numRuns: 50 },
    );
  });

  it('reads web streams and async generators', async () => {
    const bytes = Buffer.from('web stream');
    expect(await hashStream(new Blob([bytes]).stream() as unknown as AsyncIterable<Uint8Array>)).toBe(
      reference(bytes, 'sha256'),
    );
    async function* gen() {
      yield bytes.subarray(0, 3);
      yield bytes.subarray(3);
    }
    expect(await hashStream(gen(), 'md5')).toBe(reference(bytes, 'md5'));
  });

  it('rejects string chunks, non-streams, and passes stream errors on', async () => {
    await expect(hashStream(Readable.from(['text']))).rejects.toThrow(/chunk must be a Buffer/);
    await expect(hashStream({} as AsyncIterable<Uint8Array>)).rejects.toThrow(/async iterable/);
    const failing = new Readable({
      read() {
        this.destroy(new Error('disk on fire'));
      },
    });
    await expect(hashStream(failing)).rejects.toThrow('disk on fire');
  });
});

describe('hashFile', () => {
  // Around each boundary of the reader: empty, the synchronous limit, one read, several reads.
  const sizes = [
    0,
    1,
    SYNC_READ_LIMIT - 1,
    SYNC_READ_LIMIT,
    SYNC_READ_LIMIT + 1,
    READ_SIZE,
    READ_SIZE + 1,
    2 * READ_SIZE + 12345,
  ];

  it.each(sizes)('equals node:crypto on a %i-byte file, all digests from one read', async (size) => {
    const bytes = Buffer.alloc(size);
    for (let i = 0; i < size; i += 1) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
    const path = join(dir, `file-${size}`);
    await writeFile(path, bytes);
    expect(await hashFile(path)).toBe(reference(bytes, 'sha256'));
    expect(await hashFile(path, 'md5')).toBe(reference(bytes, 'md5'));
    expect(await hashFile(path, ['sha256', 'md5', 'sha1', 'md5'])).toEqual({
      sha256: reference(bytes, 'sha256'),
      md5: reference(bytes, 'md5'),
      sha1: reference(bytes, 'sha1'),
    });
  });

  it('equals node:crypto on random files', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 70_000 }), async (bytes) => {
        const path = join(dir, 'random');
        await writeFile(path, bytes);
        expect(await hashFile(path, 'sha1')).toBe(reference(bytes, 'sha1'));
      }),
      { numRuns: 30 },
    );
  });

  it('reads a FIFO to its end (not a regular file: no size to trust)', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const bytes = Buffer.alloc(300_000, 7);
    const [digest] = await Promise.all([hashFile(fifo), writeFile(fifo, bytes)]);
    expect(digest).toBe(reference(bytes, 'sha256'));
  });

  it('reads a FIFO whose writer, in another process, wrote everything and closed before the read began', async () => {
    // \`printf … > fifo\`: released by the first reader to open the FIFO, it writes and closes at once. A
    // reader that opened the FIFO to inspect it, closed it and opened it again would then wait forever
    // for a writer. The thread pool is kept busy so that any second open comes late.
    const fifo = join(dir, 'fifo-short-writer');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', 'printf hello-fifo > "$0"', fifo], { stdio: 'ignore' });
    const exited = new Promise((resolve) => writer.once('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 300)); // let it block in open(); not needed to pass
    const busy = Array.from(
      { length: 4 },
      () => new Promise((resolve) => pbkdf2('p', 's', 100_000, 32, 'sha256', resolve)),
    );
    const results = [];
    for await (const file of hashFiles([fifo])) results.push(file);
    await Promise.all([exited, ...busy]);
    const [read] = results;
    expect(read?.error).toBeUndefined();
    expect(read && 'digests' in read ? read.digests.sha256 : undefined).toBe(
      reference(Buffer.from('hello-fifo'), 'sha256'),
    );
  });

  it('gives the same digests through the hashscan-sms/hashing entry as through the root', async () => {
    const entry = await import('../../src/hashing/index.js');
    const path = join(dir, 'file-0');
    expect(entry.hashFile).toBe(hashFile);
    expect(await entry.hashFile(path, ['md5', 'sha256'])).toEqual(await hashFile(path, ['md5', 'sha256']));
  });

  it('rejects with the fs error for a missing file or a directory, and a TypeError for an unknown algorithm', async () => {
    await expect(hashFile(join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(hashFile(dir)).rejects.toMatchObject({ code: 'EISDIR' });
    await expect(hashFile(join(dir, 'file-0'), 'sha512' as 'sha256')).rejects.toThrow(TypeError);
  });
});

describe('hashFiles', () => {
  it('hashes every file once, reports unreadable ones and keeps going', async () => {
    const paths: string[] = [];
    for (let i = 0; i < 30; i += 1) {
      const path = join(dir, `many-${i}`);
      await writeFile(path, `content ${i}`);
      paths.push(path);
    }
    paths.splice(7, 0, join(dir, 'gone'), dir);
    const seen = new Map<number, string>();
    const failures: string[] = [];
    for await (const file of hashFiles(paths, { concurrency: 3, algorithms: ['md5', 'sha256'] })) {
      if (file.error !== undefined) failures.push(`${file.index}:${file.error.code}`);
      else seen.set(file.index, file.digests.md5);
    }
    expect(failures.sort()).toEqual(['7:ENOENT', '8:EISDIR']);
    expect(seen.size).toBe(30);
    expect(seen.get(0)).toBe(reference(Buffer.from('content 0'), 'md5'));
    expect(seen.get(31)).toBe(reference(Buffer.from('content 29'), 'md5'));
  });

  it('pulls paths only as fast as it hashes (bounded by the concurrency)', async () => {
    let pulled = 0;
    function* endless(): Generator<string> {
      while (true) {
        pulled += 1;
        yield join(dir, 'many-1');
      }
    }
    let hashed = 0;
    for await (const _ of hashFiles(endless(), { concurrency: 4 })) {
      hashed += 1;
      if (hashed === 100) break;
    }
    expect(pulled).toBeLessThanOrEqual(100 + 8);
  });

  it('stops pulling once aborted, and checks its options', async () => {
    const controller = new AbortController();
    controller.abort();
    const out = [];
    for await (const file of hashFiles([join(dir, 'many-1')], { signal: controller.signal })) out.push(file);
    expect(out).toEqual([]);
    await expect(hashFiles([], { concurrency: 0 }).next()).rejects.toThrow(/concurrency/);
    await expect(hashFiles([42 as unknown as string]).next()).rejects.toThrow(/path must be a string/);
  });
});
