/**
 * A lookup thread of `--workers N` (its own file, `dist/cli-lookup-thread.js`):
 * its own event loop, client, connections and concurrency limit. Looks up
 * the hashes the main thread sends, through the same pipeline as one thread
 * does, and sends each outcome back.
 */
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { SecretMask } from '../../secrets/secret-mask.js';
import { connectHashScan } from '../config.js';
import { Diagnostics, type Io } from '../io.js';
import { lookUpEach } from '../lookup-pipeline.js';
import { Progress } from '../progress.js';
import type { OutcomeView } from '../scan-row.js';
import { ADAPTIVE_MAX, chooseLimit } from './choose-limit.js';
import { type FromLookupThread, type LookupThreadSetup, type ToLookupThread, toView } from './thread-messages.js';

const port = parentPort;
if (port === null) throw new Error('lookup-thread.js runs as a worker thread');
const setup = workerData as LookupThreadSetup;

const queue: (readonly [number, string])[][] = [];
let ended = false;
let wake: (() => void) | undefined;
port.on('message', (message: ToLookupThread) => {
  if ('ids' in message) queue.push(message.ids.map((id, i) => [id, message.hashes[i] as string] as const));
  else ended = true;
  wake?.();
  wake = undefined;
});

async function* items(): AsyncGenerator<readonly (readonly [number, string])[], void, undefined> {
  while (true) {
    const batch = queue.shift();
    if (batch !== undefined) yield batch;
    else if (ended) return;
    else await new Promise<void>((resolve) => (wake = resolve));
  }
}

let batch: (readonly [number, OutcomeView])[] = [];
let scheduled = false;
const flush = (): void => {
  scheduled = false;
  if (batch.length === 0) return;
  port.postMessage({ outcomes: batch } satisfies FromLookupThread);
  batch = [];
};

// The thread writes no results: they go back to the main thread. Diagnostics (--verbose) go to stderr.
const nowhere = new Writable({ write: (_chunk, _encoding, done) => done() });
const io: Io = { out: nowhere, err: process.stderr, stdin: process.stdin, env: process.env };
const diagnostics = new Diagnostics(io, new SecretMask(), setup.verbose);
const progress = new Progress(nowhere, false, false);
const { limit, observers } = chooseLimit(setup.pinned, diagnostics, progress);
const connection = await connectHashScan(setup.flags, setup.pinned ?? ADAPTIVE_MAX, diagnostics, observers);
let shownLimit = 0;
try {
  await lookUpEach(
    connection.client,
    items(),
    ([, hash]) => hash,
    { limit, signal: new AbortController().signal },
    ([id], outcome) => {
      batch.push([id, toView(outcome)]);
      if (limit.current !== shownLimit) {
        shownLimit = limit.current;
        port.postMessage({ limit: shownLimit } satisfies FromLookupThread);
      }
      if (batch.length >= 256) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    nowhere,
  );
} finally {
  flush();
  await connection.close();
}
port.postMessage({ done: true } satisfies FromLookupThread);
