/**
 * The walk of `scan --inventory`, with each file's identity: on a thread of
 * its own where the build has one (the main thread loads the inventory's
 * rows meanwhile, on the other core), else on this thread. Started as soon as
 * the roots are known, before the inventory is opened; its files are taken
 * later, through {@link WalkThread.files}.
 */
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FileIdentity } from '../inventory/store.js';
import { builtThreadFile } from '../thread-file.js';
import { type WalkOptions, walk } from '../walk.js';
import { type FromWalker, IN_FLIGHT, identityOf, type ProblemWire, unpack, type WalkJob } from './wire.js';

/** What the walk is told of each file and problem (the walk's own options, with the file's identity). */
interface WalkThreadOptions extends Omit<WalkOptions, 'claim' | 'followSymlinks'> {
  /** `true` when the caller settled the file then and there; otherwise it is yielded. */
  readonly claim: (path: Buffer, identity: FileIdentity | undefined) => boolean;
}

/** A walk started ahead of its reader. */
export interface WalkThread {
  /** The files not claimed, in the walk's order; once only. Stopping early (or `signal`) ends the thread. */
  files(options: WalkThreadOptions): AsyncGenerator<Buffer, void, undefined>;
  /** Ends the thread if {@link files} was never run (a run that failed before its walk). */
  close(): void;
}

/** Where the thread is and how far it may run ahead. */
export interface WalkThreadSetup {
  /**
   * The thread's file; none: the walk runs on this thread when its files are taken.
   * @defaultValue the one the build puts beside `cli.js`; none when run from source or on a single core
   */
  readonly threadFile?: URL | undefined;
  /** Messages the thread sends ahead of the reader, at most. @defaultValue {@link IN_FLIGHT} */
  readonly limit?: number;
}

/**
 * An inventory file from this size up holds rows enough (about 15,000) for a walk beside their
 * reading to pay for the thread's start-up; below it the walk stays on the main thread (BENCHMARKS.md).
 */
const THREAD_FROM_BYTES = 4 * 2 ** 20;

/** Whether the walk beside the reading of the inventory at `path` is worth a thread of its own. */
export function worthAThread(path: string): boolean {
  try {
    return (statSync(path, { throwIfNoEntry: false })?.size ?? 0) >= THREAD_FROM_BYTES;
  } catch {
    return false;
  }
}

/** Starts walking `roots`; its files are taken later, through {@link WalkThread.files}. */
export function startWalk(roots: readonly string[], followSymlinks: boolean, setup: WalkThreadSetup = {}): WalkThread {
  // One core: the thread would only take turns with the main thread, and its start-up is paid for nothing.
  const threadFile =
    'threadFile' in setup
      ? setup.threadFile
      : availableParallelism() > 1
        ? builtThreadFile('cli-walk-thread', import.meta.url)
        : undefined;
  if (threadFile === undefined) {
    return {
      files: (options) =>
        walk(roots, { ...options, followSymlinks, claim: (path) => options.claim(path, identityOf(path)) }),
      close: () => {},
    };
  }
  const inFlight = new SharedArrayBuffer(4);
  const worker = new Worker(threadFile, {
    workerData: { roots, followSymlinks, inFlight, limit: setup.limit ?? IN_FLIGHT } satisfies WalkJob,
  });
  // Until its files are taken, the thread does not keep the process alive (a run that fails first still exits).
  worker.unref();
  const messages: FromWalker[] = [];
  let failure: { readonly error: unknown } | undefined;
  let ended = false;
  // Said before the thread exits, but taken later: an exit after it is the end, not a failure.
  let done = false;
  let wake: (() => void) | undefined;
  const woken = (): void => {
    wake?.();
    wake = undefined;
  };
  worker.on('message', (message: FromWalker) => {
    if ('done' in message) done = true;
    messages.push(message);
    woken();
  });
  worker.on('error', (error) => {
    failure ??= { error };
    woken();
  });
  worker.on('exit', (code) => {
    if (!ended && !done) failure ??= { error: new Error(`the walking thread stopped early (exit code ${code})`) };
    woken();
  });
  const taken = new Int32Array(inFlight);
  return {
    async *files(options) {
      worker.ref();
      try {
        while (true) {
          const message = messages.shift();
          if (message === undefined) {
            if (failure !== undefined) throw failure.error;
            await new Promise<void>((resolve) => (wake = resolve));
            continue;
          }
          Atomics.sub(taken, 0, 1);
          Atomics.notify(taken, 0);
          if ('done' in message) {
            ended = true;
            return;
          }
          if (options.signal?.aborted === true) return;
          if ('problem' in message) options.onProblem(problemOf(message.problem));
          else {
            for (const { path, identity } of unpack(message.files)) {
              if (!options.claim(path, identity)) yield path;
            }
            // A batch's claimed files wrote rows: a turn of the event loop, and the output drains.
            await new Promise<void>((resolve) => setImmediate(resolve));
            await options.pause?.();
          }
        }
      } finally {
        ended = true;
        await worker.terminate();
      }
    },
    close: () => {
      ended = true;
      void worker.terminate();
    },
  };
}

function problemOf(wire: ProblemWire): Parameters<WalkOptions['onProblem']>[0] {
  const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let error: NodeJS.ErrnoException | undefined;
  if (wire.message !== undefined) {
    error = new Error(wire.message);
    if (wire.code !== undefined) error.code = wire.code;
  }
  return {
    path: asBuffer(wire.path),
    kind: wire.kind,
    ...(error === undefined ? {} : { error }),
    ...(wire.first === undefined ? {} : { first: asBuffer(wire.first) }),
  };
}
