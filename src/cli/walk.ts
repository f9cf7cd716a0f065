import { stat } from 'node:fs/promises';
import { type DirEntry, joinBytes as join, openDirectory } from './dir-entries.js';

/** Something the walk met that is not a file to hash. */
export interface WalkProblem {
  /** The name as bytes (see `names.ts`). */
  readonly path: Buffer;
  /** `unreadable`: could not be listed or inspected (reported as review); the others are skipped. */
  readonly kind: 'unreadable' | 'symlink' | 'loop' | 'special';
  readonly error?: NodeJS.ErrnoException;
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
 * skipped unless `followSymlinks`, and then a directory already on the walk
 * (same device and inode) is reported as a loop instead of entered again.
 */
export async function* walk(
  roots: readonly (string | Buffer)[],
  options: WalkOptions,
): AsyncGenerator<Buffer, void, undefined> {
  const seen = new Set<string>();
  for (const root of roots) {
    yield* visit(typeof root === 'string' ? Buffer.from(root) : root, true, seen, options);
  }
}

async function* visit(
  path: Buffer,
  followThis: boolean,
  seen: Set<string>,
  options: WalkOptions,
): AsyncGenerator<Buffer, void, undefined> {
  if (isAborted(options)) return;
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
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
  if (seen.has(id)) {
    options.onProblem({ path, kind: 'loop' });
    return;
  }
  seen.add(id);
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
