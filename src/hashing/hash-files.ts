import { SharedAbort } from '../util/abort-like.js';
import { isValidConcurrency, streamConcurrent } from '../util/concurrency.js';
import { checkAlgorithms, type Digests } from './digests.js';
import { ReadBuffers, requireFileSystem } from './file-reader.js';
import type { HashAlgorithm } from './hash-algorithm.js';
import { digestFile } from './hash-file.js';

/**
 * Options of {@link hashFiles}.
 *
 * @example
 * ```ts
 * hashFiles(paths, { algorithms: ['sha256', 'md5'], concurrency: 16 })
 * ```
 */
export interface HashFilesOptions<A extends HashAlgorithm = 'sha256'> {
  /** Digests computed from the one read of each file. @defaultValue `['sha256']` */
  readonly algorithms?: readonly A[] | undefined;
  /**
   * Files open and read at once (1 to 1024). Each holds two 2 MiB buffers
   * while it is read, so memory and open descriptors stay bounded by it.
   * @defaultValue 8
   */
  readonly concurrency?: number | undefined;
  /** Stops pulling paths; files already being read finish. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * A path as `hashFiles` takes it: a string, or the bytes of the name as the
 * operating system gave them (`readdir` with `encoding: 'buffer'`). File
 * names are bytes: one that is not valid UTF-8 does not survive a trip
 * through a string, so a walk that must open every file passes Buffers.
 */
export type FilePath = string | Buffer;

/** A file that was read: its digests and size. */
export interface HashedFile<A extends HashAlgorithm = 'sha256', P extends FilePath = string> {
  /** Position of the path in the input, from 0. */
  readonly index: number;
  /** The path as given. */
  readonly path: P;
  /** Bytes read. */
  readonly size: number;
  /** One lower-case hex digest per requested algorithm. */
  readonly digests: Digests<A>;
  /** Always absent on a file that was read: test `file.error` to tell the two kinds apart. */
  readonly error?: undefined;
}

/**
 * A file that could not be read (removed, unreadable, a directory, …), or that changed while it was read
 * (`error.code === 'FILE_CHANGED'`, a `HashScanError`): the batch goes on.
 */
export interface UnreadableFile<P extends FilePath = string> {
  /** Position of the path in the input, from 0. */
  readonly index: number;
  /** The path as given. */
  readonly path: P;
  /** The `fs` error, with its `code` (`ENOENT`, `EACCES`, …), or a `HashScanError` with code `FILE_CHANGED`. */
  readonly error: NodeJS.ErrnoException;
}

/**
 * Hashes many files with bounded concurrency and yields each as it is done
 * (completion order; `index` gives the input position). Paths may come from
 * any iterable or async iterable, such as a directory walk, and are pulled
 * only as fast as files are hashed, so memory stays flat. A file that cannot
 * be read is yielded as an {@link UnreadableFile}; it never stops the batch.
 *
 * @example
 * ```ts
 * for await (const file of hashFiles(['a.pdf', 'b.zip'])) {
 *   if (file.error) console.error(file.path, file.error.code)
 *   else console.log(file.path, file.digests.sha256)
 * }
 * ```
 */
export async function* hashFiles<A extends HashAlgorithm = 'sha256', P extends FilePath = string>(
  paths: Iterable<P> | AsyncIterable<P>,
  options: HashFilesOptions<A> = {},
): AsyncGenerator<HashedFile<A, P> | UnreadableFile<P>, void, undefined> {
  requireFileSystem('hashFiles');
  const algorithms = checkAlgorithms(options.algorithms ?? ['sha256'], 'hashFiles');
  const concurrency = options.concurrency ?? 8;
  if (!isValidConcurrency(concurrency))
    throw new TypeError('hashFiles: concurrency must be a whole number from 1 to 1024');
  const free: ReadBuffers[] = [];
  const task = async (path: P, index: number): Promise<HashedFile<A, P> | UnreadableFile<P>> => {
    const buffers = free.pop() ?? new ReadBuffers();
    try {
      const { digests, size } = await digestFile(path, algorithms, buffers);
      return { index, path, size, digests: digests as Digests<A> };
    } catch (error) {
      return { index, path, error: asErrno(error) };
    } finally {
      free.push(buffers);
    }
  };
  const stream = streamConcurrent(untilAborted(paths, options.signal), {
    concurrency,
    task,
    // A read under way is not cut short: it ends soon and frees its buffers.
    stop: options.signal ?? new SharedAbort(),
    cancel: noop,
  });
  for await (const { value } of stream) yield value;
}

function noop(): void {}

/** Stops pulling paths once `signal` aborts. */
async function* untilAborted<P extends FilePath>(
  paths: Iterable<P> | AsyncIterable<P>,
  signal: AbortSignal | undefined,
): AsyncGenerator<P, void, undefined> {
  for await (const path of paths) {
    if (signal?.aborted === true) return;
    if (typeof path !== 'string' && !Buffer.isBuffer(path))
      throw new TypeError('hashFiles: every path must be a string or a Buffer');
    yield path;
  }
}

function asErrno(error: unknown): NodeJS.ErrnoException {
  return error instanceof Error ? error : new Error('the file could not be read', { cause: error });
}
