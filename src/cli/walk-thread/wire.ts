/**
 * What the walking thread sends: the files it met with their identities,
 * packed into one transferable buffer per batch (a structured clone of an
 * object per file would cost the main thread about what a `stat` does), and
 * what it met that is not a file to read, one message each (they are rare).
 */
import { statSync } from 'node:fs';
import type { FileIdentity } from '../inventory/store.js';

/** A file's identity as the walk took it; `undefined` when it could not be inspected (reading it says why). */
export function identityOf(path: Buffer): FileIdentity | undefined {
  try {
    const info = statSync(path, { throwIfNoEntry: false });
    return info && { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino, dev: info.dev };
  } catch {
    return undefined;
  }
}

/** Set up the thread: where to walk, and how. */
export interface WalkJob {
  readonly roots: readonly string[];
  readonly followSymlinks: boolean;
  /** Counts the messages sent and not yet taken (index 0): the thread waits while it reaches `limit`. */
  readonly inFlight: SharedArrayBuffer;
  /** Messages sent and not yet taken, at most: memory stays bounded whatever the tree. */
  readonly limit: number;
}

/** {@link WalkJob.limit} by default: room for the whole walk of a large tree while the rows load (512 files a batch). */
export const IN_FLIGHT = 256;

/** Something met that is not a file to read (the walk's problems), as it crosses threads. */
export interface ProblemWire {
  readonly path: Uint8Array;
  readonly kind: 'unreadable' | 'symlink' | 'loop' | 'alias' | 'special';
  /** An `Error`'s `code` does not survive the copy: sent beside its message. */
  readonly code?: string | undefined;
  readonly message?: string | undefined;
  readonly first?: Uint8Array | undefined;
}

/** From the thread: files (a packed batch), one problem, or the end of the walk. */
export type FromWalker =
  | { readonly files: ArrayBuffer; readonly count: number }
  | { readonly problem: ProblemWire }
  | { readonly done: true };

/** Per file: a flag (identity or none), size, mtime, inode, device, the path's length, then its bytes. */
const HEAD = 1 + 4 * 8 + 4;

/** Files packed as they are met, into one buffer that grows by doubling. */
export class FileBatch {
  #bytes = new Uint8Array(64 * 1024);
  #view = new DataView(this.#bytes.buffer);
  #length = 0;
  count = 0;

  add(path: Buffer, identity: FileIdentity | undefined): void {
    const need = this.#length + HEAD + path.length;
    if (need > this.#bytes.length) {
      const bigger = new Uint8Array(Math.max(need, this.#bytes.length * 2));
      bigger.set(this.#bytes.subarray(0, this.#length));
      this.#bytes = bigger;
      this.#view = new DataView(bigger.buffer);
    }
    const view = this.#view;
    let at = this.#length;
    view.setUint8(at, identity === undefined ? 0 : 1);
    view.setFloat64(at + 1, identity?.size ?? 0);
    view.setFloat64(at + 9, identity?.mtimeMs ?? 0);
    view.setFloat64(at + 17, identity?.ino ?? 0);
    view.setFloat64(at + 25, identity?.dev ?? 0);
    view.setUint32(at + 33, path.length);
    at += HEAD;
    this.#bytes.set(path, at);
    this.#length = at + path.length;
    this.count += 1;
  }

  /** The batch so far, as its own buffer (to transfer); the batch starts again empty. */
  take(): ArrayBuffer {
    const taken = this.#bytes.buffer.slice(0, this.#length);
    this.#length = 0;
    this.count = 0;
    return taken;
  }
}

/** Each file of a packed batch: its path (a view of the batch's bytes) and identity. */
export function* unpack(files: ArrayBuffer): Generator<{ path: Buffer; identity: FileIdentity | undefined }> {
  const view = new DataView(files);
  for (let at = 0; at < files.byteLength; ) {
    const known = view.getUint8(at) === 1;
    const length = view.getUint32(at + 33);
    const path = Buffer.from(files, at + HEAD, length);
    const identity = known
      ? {
          size: view.getFloat64(at + 1),
          mtimeMs: view.getFloat64(at + 9),
          ino: view.getFloat64(at + 17),
          dev: view.getFloat64(at + 25),
        }
      : undefined;
    at += HEAD + length;
    yield { path, identity };
  }
}
