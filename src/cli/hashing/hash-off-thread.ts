import { Worker } from 'node:worker_threads';
import { type HashAlgorithm, type HashedFile, hashFiles, type UnreadableFile } from '../../hashing/index.js';
import { builtThreadFile } from '../thread-file.js';
import type { FromHasher, HashedWire, HashJob, ToHasher, UnreadableWire } from './messages.js';

/** Paths sent and not yet answered, at most: memory stays bounded whatever the folder. */
const IN_FLIGHT = 1024;
/** Paths per message, at most (or whatever the walk gave by the end of a turn of the event loop). */
const SEND_BATCH = 128;

export interface OffThreadOptions<A extends HashAlgorithm> {
  readonly algorithms: readonly A[];
  readonly concurrency: number;
  /** Stops sending paths; files already sent are still hashed and yielded. */
  readonly signal: AbortSignal;
  /** The thread's file. @defaultValue the one the build puts beside `cli.js` (none: hash on this thread) */
  readonly threadFile?: URL | undefined;
}

/**
 * `hashFiles` on a thread of its own: the main thread keeps to the walk and
 * the lookups while the files are read and hashed on another core, so a scan
 * takes the time of the slower of the two rather than their sum. Yields what
 * `hashFiles` yields, in completion order, `index` counting the paths given.
 */
export async function* hashFilesOffThread<A extends HashAlgorithm>(
  paths: AsyncIterable<Buffer>,
  options: OffThreadOptions<A>,
): AsyncGenerator<HashedFile<A, Buffer> | UnreadableFile<Buffer>, void, undefined> {
  const threadFile = 'threadFile' in options ? options.threadFile : builtThreadFile('cli-hash-thread', import.meta.url);
  if (threadFile === undefined) {
    yield* hashFiles(paths, options);
    return;
  }
  const job: HashJob = { algorithms: options.algorithms, concurrency: options.concurrency };
  // Started with the first path: a run that reads no file (an inventory's re-check) never pays for the thread.
  let worker: Worker | undefined;
  const start = (): Worker => {
    const started = new Worker(threadFile, { workerData: job });
    started.on('message', (message: FromHasher) => {
      if ('done' in message) done = true;
      else for (const file of message.files) ready.push(fromWire<A>(file));
      wake();
    });
    started.on('error', (error) => {
      failure ??= { error };
      wake();
    });
    started.on('exit', (code) => {
      if (!done) failure ??= { error: new Error(`the hashing thread stopped early (exit code ${code})`) };
      wake();
    });
    return started;
  };
  const ready: (HashedFile<A, Buffer> | UnreadableFile<Buffer>)[] = [];
  let done = false;
  let closed = false;
  let failure: { readonly error: unknown } | undefined;
  let sent = 0;
  let taken = 0;
  let wakeConsumer: (() => void) | undefined;
  let wakeFeeder: (() => void) | undefined;
  const wake = (): void => {
    wakeConsumer?.();
    wakeConsumer = undefined;
  };

  const feed = async (): Promise<void> => {
    let batch: Buffer[] = [];
    let scheduled = false;
    const post = (): void => {
      scheduled = false;
      if (batch.length === 0 || closed) return;
      worker ??= start();
      worker.postMessage({ paths: batch } satisfies ToHasher);
      sent += batch.length;
      batch = [];
    };
    try {
      for await (const path of paths) {
        if (options.signal.aborted || closed) break;
        batch.push(path);
        if (batch.length >= SEND_BATCH) post();
        else if (!scheduled) {
          scheduled = true;
          setImmediate(post);
        }
        while (sent + batch.length - taken >= IN_FLIGHT && !closed && failure === undefined) {
          post();
          await new Promise<void>((resolve) => (wakeFeeder = resolve));
        }
      }
      post();
    } finally {
      if (!closed && worker !== undefined) worker.postMessage({ end: true } satisfies ToHasher);
      else if (!closed) {
        // No path was sent: no thread to end, nothing more will come.
        done = true;
        wake();
      }
    }
  };
  const feeding = feed().catch((error: unknown) => {
    failure ??= { error };
    wake();
  });

  try {
    while (true) {
      if (ready.length > 0) {
        const files = ready.splice(0);
        taken += files.length;
        wakeFeeder?.();
        wakeFeeder = undefined;
        yield* files;
        continue;
      }
      if (failure !== undefined) throw failure.error;
      if (done) return;
      await new Promise<void>((resolve) => (wakeConsumer = resolve));
    }
  } finally {
    closed = true;
    wakeFeeder?.();
    await worker?.terminate();
    await feeding;
  }
}

function fromWire<A extends HashAlgorithm>(
  file: HashedWire | UnreadableWire,
): HashedFile<A, Buffer> | UnreadableFile<Buffer> {
  const path = Buffer.from(file.path.buffer, file.path.byteOffset, file.path.byteLength);
  if ('digests' in file) {
    return { index: file.index, path, size: file.size, digests: file.digests as HashedFile<A>['digests'] };
  }
  const error: NodeJS.ErrnoException = new Error(file.message);
  if (file.code !== undefined) error.code = file.code;
  return { index: file.index, path, error };
}
