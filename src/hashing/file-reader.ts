import type * as NodeFs from 'node:fs';
import type { BigIntStats } from 'node:fs';
import { nodeBuiltin } from '../util/node-builtin.js';
import { fileChanged, identityOf } from './file-changed.js';

/**
 * `node:fs`, found when a file is first hashed (through `util/node-builtin.ts`): the root entry
 * bundles for a Worker without `nodejs_compat`, where hashing a path has no meaning and throws.
 */
function fs(caller = 'hashFile'): typeof NodeFs {
  const found = nodeBuiltin<typeof NodeFs>('node:fs');
  if (found === undefined)
    throw new TypeError(`${caller}: this runtime has no file system (node:fs); hash a stream or a Blob instead`);
  return found;
}

/** Throws the documented `TypeError` where the runtime has no file system, before any buffer is made. */
export function requireFileSystem(caller: 'hashFile' | 'hashFiles'): void {
  fs(caller);
}

import type { DigestSet } from './digests.js';

/**
 * Size of each read. Large reads cut the system calls and thread-pool hops
 * per byte (a stream's small chunks fall far behind `openssl dgst` on a
 * large file, BENCHMARKS.md); beyond a few MiB nothing more is gained and
 * memory grows.
 */
export const READ_SIZE = 2 * 1024 * 1024;

/**
 * Two read buffers: while `node:crypto` hashes one on the main thread, the
 * thread pool fills the other, so disk and hash overlap. A folder walk keeps
 * one pair per worker rather than allocating per file.
 */
export class ReadBuffers {
  readonly #pair: [Buffer, Buffer] = [Buffer.allocUnsafe(READ_SIZE), Buffer.allocUnsafe(READ_SIZE)];

  get(index: 0 | 1): Buffer {
    return this.#pair[index];
  }
}

const openFd = (path: string | Buffer): Promise<number> =>
  new Promise((resolve, reject) => fs().open(path, 'r', (error, fd) => (error ? reject(error) : resolve(fd))));
// BigInt: nanosecond times, so a rewrite within the same millisecond still moves them.
const statFd = (fd: number): Promise<BigIntStats> =>
  new Promise((resolve, reject) =>
    fs().fstat(fd, { bigint: true }, (error, stats) => (error ? reject(error) : resolve(stats))),
  );
const readFd = (fd: number, buffer: Buffer, length: number): Promise<number> =>
  new Promise((resolve, reject) =>
    fs().read(fd, buffer, 0, length, null, (error, bytes) => (error ? reject(error) : resolve(bytes))),
  );
const closeFd = (fd: number): Promise<void> =>
  new Promise((resolve) => {
    // A failed close of a read-only descriptor loses nothing: the digest is already complete.
    fs().close(fd, () => resolve());
  });

/**
 * Regular files up to this size are read with synchronous calls: for small
 * files, the four thread-pool round trips of `open`, `fstat`, `read` and
 * `close` cost far more than the work itself (BENCHMARKS.md has the
 * measurement against `sha256sum`). The event loop
 * is held for at most one such read (well under a millisecond on a local disk).
 */
export const SYNC_READ_LIMIT = 256 * 1024;

/**
 * The synchronous fast path: a regular file of at most {@link SYNC_READ_LIMIT}
 * bytes, in one read. `stat` first, since a synchronous `open` of a FIFO
 * would block the whole process until a writer came. Returns `undefined` when
 * the file does not qualify (too large, not a regular file).
 */
function readSmallSync(path: string | Buffer, set: DigestSet, buffers: ReadBuffers): number | undefined {
  const before = fs().statSync(path, { throwIfNoEntry: true });
  if (!before.isFile() || before.size > SYNC_READ_LIMIT) return undefined;
  const fd = fs().openSync(path, 'r');
  try {
    const stats = fs().fstatSync(fd, { bigint: true });
    // Replaced between stat and open (by a FIFO, a larger file): take the general path.
    if (!stats.isFile() || stats.size > SYNC_READ_LIMIT) return undefined;
    const size = Number(stats.size);
    const buffer = buffers.get(0);
    let total = 0;
    while (total < size) {
      const bytes = fs().readSync(fd, buffer, total, size - total, null);
      if (bytes === 0) break;
      total += bytes;
    }
    const changed = fileChanged(identityOf(stats), total, identityOf(fs().fstatSync(fd, { bigint: true })));
    if (changed !== undefined) throw changed;
    set.update(buffer.subarray(0, total));
    return total;
  } finally {
    fs().closeSync(fd);
  }
}

/**
 * Reads a file once, feeding every digest of `set`, and returns how many
 * bytes were read. A regular file is read up to the size `fstat` gave, which
 * saves the last empty read on every small file (one read for most of them);
 * anything else (a FIFO, a character device, `/proc`) is read to its end.
 * A regular file that changed while it was read (see `file-changed.ts`)
 * rejects with a `HashScanError` of code `FILE_CHANGED`.
 */
export async function readInto(path: string | Buffer, set: DigestSet, buffers: ReadBuffers): Promise<number> {
  const small = readSmallSync(path, set, buffers);
  if (small !== undefined) return small;
  const fd = await openFd(path);
  try {
    const stats = await statFd(fd);
    if (stats.isDirectory())
      throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${String(path)}'`), {
        code: 'EISDIR',
        path,
      });
    const expected = stats.isFile() ? Number(stats.size) : Number.POSITIVE_INFINITY;
    let total = 0;
    let which: 0 | 1 = 0;
    let pending = total < expected ? readFd(fd, buffers.get(which), READ_SIZE) : Promise.resolve(0);
    while (true) {
      const bytes = await pending;
      if (bytes === 0) break;
      const current = buffers.get(which);
      total += bytes;
      which = which === 0 ? 1 : 0;
      // Start the next read before hashing this chunk, into the other buffer.
      pending = total < expected ? readFd(fd, buffers.get(which), READ_SIZE) : Promise.resolve(0);
      try {
        set.update(current.subarray(0, bytes));
      } catch (error) {
        await pending.catch(() => 0);
        throw error;
      }
    }
    // A regular file must be the same file after the read as before it (a FIFO or `/proc` has no size to keep).
    if (stats.isFile()) {
      const changed = fileChanged(identityOf(stats), total, identityOf(await statFd(fd)));
      if (changed !== undefined) throw changed;
    }
    return total;
  } finally {
    await closeFd(fd);
  }
}
