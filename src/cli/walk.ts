import { type Stats, statSync } from 'node:fs';
import { type DirEntry, joinBytes as join, readDirectory } from './dir-entries.js';

/** Entries listed between two turns of the event loop, at most. */
const YIELD_EVERY = 256;

/** Something the walk met that is not a file to hash. */
export interface WalkProblem {
  /** The name as bytes (see `names.ts`). */
  readonly path: Buffer;
  /**
   * `unreadable`: could not be listed or inspected (reported as review); the
   * others are skipped. `loop`: a link back to a directory the walk is inside
   * of; `alias`: a directory already walked through another path (`first`).
   */
  readonly kind: 'unreadable' | 'symlink' | 'loop' | 'alias' | 'special';
  readonly error?: NodeJS.ErrnoException;
  /** For an `alias`: the path the directory was walked through. */
  readonly first?: Buffer;
}

export interface WalkOptions {
  readonly followSymlinks: boolean;
  /**
   * Offered each regular file before it is yielded: `true` when the caller
   * settled it then and there (an inventory's unchanged file), and it is not
   * yielded. Saves a trip through the generators per file.
   */
  readonly claim?: ((path: Buffer) => boolean) | undefined;
  /** Awaited now and then while a folder is listed: the caller's output backpressure (claimed files write rows). */
  readonly pause?: (() => Promise<void>) | undefined;
  readonly onProblem: (problem: WalkProblem) => void;
  readonly signal?: AbortSignal;
}

/**
 * Yields the regular files under `roots`, depth first, streaming each
 * directory (`opendir`) so a folder of millions of entries is never held in
 * memory. Names are bytes from end to end (`encoding: 'buffer'`): a name
 * that is not valid UTF-8 is opened as the operating system gave it, never
 * through a lossy string. Paths named on the command line are followed even
 * when they are symbolic links (as `find -H` does); below them, links are
 * skipped unless `followSymlinks`, and then a directory met again (same
 * device and inode) is never entered twice: a loop when it is one the walk
 * is inside of, an alias (with the path it was walked through) otherwise.
 * `roots` may stream (a path list read as it comes): it is pulled one root
 * at a time.
 */
export async function* walk(
  roots: Iterable<string | Buffer> | AsyncIterable<string | Buffer>,
  options: WalkOptions,
): AsyncGenerator<Buffer, void, undefined> {
  const seen: Seen = { walked: new Map(), inside: new Set() };
  for await (const root of roots) {
    if (isAborted(options)) return;
    yield* visit(typeof root === 'string' ? Buffer.from(root) : root, true, seen, options);
  }
}

/** Directories walked (by device and inode; with their first path only under -L, when one can come back), and those the walk is inside of. */
interface Seen {
  readonly walked: Map<string, Buffer | undefined>;
  readonly inside: Set<string>;
}

async function* visit(
  path: Buffer,
  followThis: boolean,
  seen: Seen,
  options: WalkOptions,
): AsyncGenerator<Buffer, void, undefined> {
  if (isAborted(options)) return;
  let info: Stats;
  try {
    // Synchronous, as the reader's small files are: a list of 30 000 paths is 30 000 roots, and a
    // thread-pool round trip each cost more CPU than the scan of the same files as a folder.
    info = statSync(path);
  } catch (error) {
    options.onProblem({ path, kind: 'unreadable', error: error as NodeJS.ErrnoException });
    return;
  }
  if (info.isFile()) {
    if (options.claim?.(path) !== true) yield path;
    return;
  }
  if (!info.isDirectory()) {
    options.onProblem({ path, kind: 'special' });
    return;
  }
  const id = `${info.dev}:${info.ino}`;
  if (seen.inside.has(id)) {
    options.onProblem({ path, kind: 'loop' });
    return;
  }
  if (seen.walked.has(id)) {
    const first = seen.walked.get(id);
    options.onProblem({ path, kind: 'alias', ...(first === undefined ? {} : { first }) });
    return;
  }
  seen.walked.set(id, options.followSymlinks ? path : undefined);
  seen.inside.add(id);
  try {
    yield* entries(path, followThis, seen, options);
  } finally {
    seen.inside.delete(id);
  }
}

async function* entries(
  path: Buffer,
  followThis: boolean,
  seen: Seen,
  options: WalkOptions,
): AsyncGenerator<Buffer, void, undefined> {
  // Opened at the first `next()`: a folder that cannot be listed is reported by the catch below.
  const dir: Iterator<DirEntry, void, undefined> = readDirectory(path);
  try {
    for (let listed = 1; ; listed += 1) {
      if (isAborted(options)) return;
      const next = dir.next();
      if (next.done === true) return;
      const entry = next.value;
      const child = join(path, entry.name);
      if (entry.isFile()) {
        if (options.claim?.(child) !== true) yield child;
      } else if (entry.isDirectory()) yield* visit(child, followThis, seen, options);
      else if (entry.isSymbolicLink()) {
        if (options.followSymlinks) yield* visit(child, true, seen, options);
        else options.onProblem({ path: child, kind: 'symlink' });
      } else options.onProblem({ path: child, kind: 'special' });
      // The listing is synchronous: a turn of the event loop now and then lets output drain and timers fire.
      if (listed % YIELD_EVERY === 0) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        await options.pause?.();
      }
    }
  } catch (error) {
    options.onProblem({ path, kind: 'unreadable', error: error as NodeJS.ErrnoException });
  } finally {
    dir.return?.();
  }
}

/** A function, so TypeScript does not narrow the flag across `await`s. */
function isAborted(options: WalkOptions): boolean {
  return options.signal?.aborted === true;
}
