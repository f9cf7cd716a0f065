import { type Stats, statSync } from 'node:fs';
import { type DirEntry, joinBytes as join, openDirectory } from './dir-entries.js';

/** Something the walk met that is not a file to hash. */
interface WalkProblem {
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
    yield path;
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
  let dir: AsyncIterable<DirEntry>;
  try {
    dir = await openDirectory(path);
  } catch (error) {
    options.onProblem({ path, kind: 'unreadable', error: error as NodeJS.ErrnoException });
    return;
  }
  try {
    for await (const entry of dir) {
      if (isAborted(options)) return;
      const child = join(path, entry.name);
      if (entry.isFile()) yield child;
      else if (entry.isDirectory()) yield* visit(child, followThis, seen, options);
      else if (entry.isSymbolicLink()) {
        if (options.followSymlinks) yield* visit(child, true, seen, options);
        else options.onProblem({ path: child, kind: 'symlink' });
      } else options.onProblem({ path: child, kind: 'special' });
    }
  } catch (error) {
    options.onProblem({ path, kind: 'unreadable', error: error as NodeJS.ErrnoException });
  }
}

/** A function, so TypeScript does not narrow the flag across `await`s. */
function isAborted(options: WalkOptions): boolean {
  return options.signal?.aborted === true;
}
