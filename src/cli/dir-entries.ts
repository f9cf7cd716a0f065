import type { Dirent } from 'node:fs';
import { lstat, opendir } from 'node:fs/promises';

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
 * Opens a folder for a streaming read, its names as bytes. Node gives
 * `Dirent`s with `Buffer` names; Deno ignores `encoding: 'buffer'` (string
 * names, which it decodes lossily itself: nothing better is to be had) and
 * Bun yields the bare `Buffer` names without types, so their type is asked
 * with `lstat`. Each shape becomes a {@link DirEntry} with a `Buffer` name.
 */
export async function openDirectory(path: Buffer): Promise<AsyncIterable<DirEntry>> {
  // 256 entries per read (default 32): a quarter less time listing a folder of 20 000 files.
  // Node's types know `encoding: 'buffer'` for readdir only; opendir takes it too and gives Buffer names.
  const bytes = { bufferSize: 256, encoding: 'buffer' as BufferEncoding };
  const dir = (await opendir(path, bytes)) as unknown as AsyncIterable<Dirent<Buffer> | Dirent<string> | Buffer>;
  return entriesOf(path, dir);
}

/** Each entry as a {@link DirEntry}, whichever shape the runtime gave. */
async function* entriesOf(
  path: Buffer,
  dir: AsyncIterable<Dirent<Buffer> | Dirent<string> | Buffer>,
): AsyncGenerator<DirEntry, void, undefined> {
  for await (const entry of dir) {
    if (Buffer.isBuffer(entry)) {
      // An entry that cannot be inspected is passed on as a file: opening it then reports it for review.
      const info = await lstat(joinBytes(path, entry)).catch(() => undefined);
      yield {
        name: entry,
        isFile: () => info === undefined || info.isFile(),
        isDirectory: () => info?.isDirectory() === true,
        isSymbolicLink: () => info?.isSymbolicLink() === true,
      };
    } else if (typeof entry.name === 'string') {
      const name = Buffer.from(entry.name);
      yield {
        name,
        isFile: () => entry.isFile(),
        isDirectory: () => entry.isDirectory(),
        isSymbolicLink: () => entry.isSymbolicLink(),
      };
    } else yield entry as Dirent<Buffer>;
  }
}
