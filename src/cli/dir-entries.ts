import { type Dirent, lstatSync, opendirSync } from 'node:fs';

/** One entry of a folder: its name as bytes and its type. */
export interface DirEntry {
  readonly name: Buffer;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

const SLASH = 0x2f;

/** `dir/name` as bytes, without doubling a trailing slash. */
export function joinBytes(dir: Buffer, name: Buffer): Buffer {
  return dir[dir.length - 1] === SLASH ? Buffer.concat([dir, name]) : Buffer.concat([dir, Buffer.of(SLASH), name]);
}

/**
 * A folder's entries, read as a stream (`opendir`, 256 entries per system
 * call, never the whole folder in memory), its names as bytes. Read
 * synchronously, as the walk's `stat`s are: an `await` per entry cost more
 * than the listing itself. Node gives `Dirent`s with `Buffer` names; Deno
 * ignores `encoding: 'buffer'` (string names, which it decodes lossily
 * itself: nothing better is to be had) and Bun yields the bare `Buffer`
 * names without types, so their type is asked with `lstat`. Each shape
 * becomes a {@link DirEntry} with a `Buffer` name. Opening throws as
 * `opendirSync` does; the folder is closed once the entries end or the
 * caller leaves.
 */
export function* readDirectory(path: Buffer): Generator<DirEntry, void, undefined> {
  // Node's types know `encoding: 'buffer'` for readdir only; opendir takes it too and gives Buffer names.
  const dir = opendirSync(path, { bufferSize: 256, encoding: 'buffer' as BufferEncoding });
  try {
    while (true) {
      const entry = dir.readSync() as Dirent<Buffer> | Dirent<string> | Buffer | null;
      if (entry === null) return;
      yield dirEntry(path, entry);
    }
  } finally {
    dir.closeSync();
  }
}

/** An entry as a {@link DirEntry}, whichever shape the runtime gave. */
function dirEntry(path: Buffer, entry: Dirent<Buffer> | Dirent<string> | Buffer): DirEntry {
  if (Buffer.isBuffer(entry)) {
    // An entry that cannot be inspected is passed on as a file: opening it then reports it for review.
    const info = lstatSync(joinBytes(path, entry), { throwIfNoEntry: false });
    return {
      name: entry,
      isFile: () => info === undefined || info.isFile(),
      isDirectory: () => info?.isDirectory() === true,
      isSymbolicLink: () => info?.isSymbolicLink() === true,
    };
  }
  if (typeof entry.name === 'string') {
    const name = Buffer.from(entry.name);
    return {
      name,
      isFile: () => entry.isFile(),
      isDirectory: () => entry.isDirectory(),
      isSymbolicLink: () => entry.isSymbolicLink(),
    };
  }
  return entry as Dirent<Buffer>;
}
