/**
 * The inventory's walking thread (its own file, `dist/cli-walk-thread.js`):
 * walks the roots and takes each file's identity (`stat`) on a core of its
 * own while the main thread loads the inventory's rows and reports, and
 * sends the files in packed batches. Loads the walk alone.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { walk } from '../walk.js';
import { FileBatch, type FromWalker, identityOf, type WalkJob } from './wire.js';

/** Files per batch. */
const BATCH = 512;

const port = parentPort;
if (port === null) throw new Error('walk-thread.js runs as a worker thread');
const job = workerData as WalkJob;
const inFlight = new Int32Array(job.inFlight);
const batch = new FileBatch();

const send = (message: FromWalker, transfer?: ArrayBuffer[]): void => {
  // The main thread is behind by `limit` messages: wait until it takes one.
  for (let sent = Atomics.load(inFlight, 0); sent >= job.limit; sent = Atomics.load(inFlight, 0)) {
    Atomics.wait(inFlight, 0, sent);
  }
  Atomics.add(inFlight, 0, 1);
  port.postMessage(message, transfer);
};
const flush = (): void => {
  if (batch.count === 0) return;
  const count = batch.count;
  const files = batch.take();
  send({ files, count }, [files]);
};

// Every file is claimed (sent with its identity), none yielded: one step runs the whole walk.
await walk(job.roots, {
  followSymlinks: job.followSymlinks,
  claim: (path) => {
    batch.add(path, identityOf(path));
    if (batch.count >= BATCH) flush();
    return true;
  },
  onProblem: ({ path, kind, error, first }) => {
    // After the files before it: the main thread meets them in the walk's order.
    flush();
    send({ problem: { path, kind, code: error?.code, message: error?.message, first } });
  },
}).next();
flush();
send({ done: true });
