/**
 * The scan command's hashing thread (its own file, `dist/cli-hash-thread.js`):
 * runs the public `hashFiles` over the paths the main thread sends, and
 * sends the results back in batches. Loads the hashing code alone.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { hashFiles } from '../../hashing/index.js';
import type { FromHasher, HashedWire, HashJob, ToHasher, UnreadableWire } from './messages.js';

/** Results sent at once, at most (or whatever is ready when the thread would otherwise wait). */
const BATCH = 256;

const port = parentPort;
if (port === null) throw new Error('hash-thread.js runs as a worker thread');
const job = workerData as HashJob;

// Paths as the main thread sends them; `hashFiles` pulls them from here.
const queue: Buffer[] = [];
let ended = false;
let wake: (() => void) | undefined;
port.on('message', (message: ToHasher) => {
  if ('paths' in message) for (const path of message.paths) queue.push(asBuffer(path));
  else ended = true;
  wake?.();
  wake = undefined;
});

/** A Buffer over the bytes of a Uint8Array that crossed threads (no copy). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

async function* paths(): AsyncGenerator<Buffer, void, undefined> {
  while (true) {
    const path = queue.shift();
    if (path !== undefined) yield path;
    else if (ended) return;
    else await new Promise<void>((resolve) => (wake = resolve));
  }
}

let batch: (HashedWire | UnreadableWire)[] = [];
let scheduled = false;
const flush = (): void => {
  scheduled = false;
  if (batch.length === 0) return;
  port.postMessage({ files: batch } satisfies FromHasher);
  batch = [];
};

for await (const file of hashFiles(paths(), { algorithms: job.algorithms, concurrency: job.concurrency })) {
  batch.push(
    file.error === undefined
      ? { index: file.index, path: file.path, size: file.size, digests: file.digests }
      : { index: file.index, path: file.path, code: file.error.code, message: file.error.message },
  );
  if (batch.length >= BATCH) flush();
  else if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
}
flush();
port.postMessage({ done: true } satisfies FromHasher);
