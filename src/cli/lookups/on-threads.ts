import { Worker } from 'node:worker_threads';
import { backpressure } from '../io.js';
import type { LookUpOptions } from '../lookup-pipeline.js';
import type { OutcomeView } from '../scan-row.js';
import { CompletionOrder } from './result-order.js';
import type { FromLookupThread, LookupThreadSetup, ToLookupThread } from './thread-messages.js';

/** Hashes given to one thread and not answered yet, at most: enough to keep its limit busy, memory bounded. */
const CREDIT = 2048;
/** Hashes per message, at most (or whatever was pulled by the end of a turn of the event loop). */
const SEND_BATCH = 256;

interface Thread {
  readonly worker: Worker;
  outstanding: number;
  limit: number;
  pending: { ids: number[]; hashes: string[] };
  done: boolean;
}

/**
 * `lookUpEach` over N lookup threads (`--workers N`): the same contract
 * (items in, one report per item, in the order `options.order` keeps, no more input pulled
 * while stdout is behind), with the lookups spread over threads that each
 * have their own event loop, client and concurrency limit. Each new hash
 * goes to the thread with the fewest outstanding. Items, output and resume
 * state stay on this thread, so there is one of each.
 */
export async function lookUpOnThreads<T>(
  threadFile: URL,
  setups: readonly LookupThreadSetup[],
  items: AsyncIterable<readonly T[]>,
  hashOf: (item: T) => string | undefined,
  options: Omit<LookUpOptions<T>, 'limit'> & { readonly onLimit?: (total: number) => void },
  report: (item: T, outcome: OutcomeView) => void,
  output: NodeJS.WritableStream,
): Promise<void> {
  const { signal } = options;
  const order = options.order ?? new CompletionOrder();
  const waiting = new Map<number, { readonly item: T; readonly ticket: number }>();
  const ready: [number, OutcomeView][] = [];
  let failure: { readonly error: unknown } | undefined;
  let wakeFeeder: (() => void) | undefined;
  let wakeConsumer: (() => void) | undefined;
  const wake = (): void => {
    wakeFeeder?.();
    wakeFeeder = undefined;
    wakeConsumer?.();
    wakeConsumer = undefined;
  };
  const threads: Thread[] = setups.map((setup) => {
    const thread: Thread = {
      worker: new Worker(threadFile, { workerData: setup }),
      outstanding: 0,
      limit: setup.pinned ?? 16,
      pending: { ids: [], hashes: [] },
      done: false,
    };
    thread.worker.on('message', (message: FromLookupThread) => {
      if ('outcomes' in message) {
        thread.outstanding -= message.outcomes.length;
        for (const [id, outcome] of message.outcomes) ready.push([id, outcome]);
      } else if ('limit' in message) {
        thread.limit = message.limit;
        options.onLimit?.(threads.reduce((sum, each) => sum + each.limit, 0));
      } else thread.done = true;
      wake();
    });
    thread.worker.on('error', (error) => {
      failure ??= { error };
      wake();
    });
    thread.worker.on('exit', (code) => {
      if (!thread.done) failure ??= { error: new Error(`a lookup thread stopped early (exit code ${code})`) };
      wake();
    });
    return thread;
  });
  options.onLimit?.(threads.reduce((sum, each) => sum + each.limit, 0));
  signal.addEventListener('abort', wake, { once: true });

  let scheduled = false;
  const post = (): void => {
    scheduled = false;
    for (const thread of threads) {
      if (thread.pending.ids.length === 0) continue;
      thread.worker.postMessage(thread.pending satisfies ToLookupThread);
      thread.pending = { ids: [], hashes: [] };
    }
  };
  let fed = false;
  const feed = async (): Promise<void> => {
    let next = 0;
    for await (const batch of items) {
      for (const item of batch) {
        const hash = hashOf(item);
        if (hash === undefined) {
          const { unlooked } = options;
          if (unlooked === undefined) throw new TypeError('lookUpOnThreads: an item without a hash');
          order.settle(order.ticket(), () => unlooked(item));
          continue;
        }
        let thread = leastBusy(threads);
        while ((thread.outstanding >= CREDIT || !order.hasRoom()) && !signal.aborted && failure === undefined) {
          post();
          await new Promise<void>((resolve) => (wakeFeeder = resolve));
          thread = leastBusy(threads);
        }
        if (signal.aborted || failure !== undefined) return;
        waiting.set(next, { item, ticket: order.ticket() });
        thread.outstanding += 1;
        thread.pending.ids.push(next);
        thread.pending.hashes.push(hash);
        next += 1;
        if (thread.pending.ids.length >= SEND_BATCH) post();
        else if (!scheduled) {
          scheduled = true;
          setImmediate(post);
        }
      }
    }
  };
  const feeding = feed().then(
    () => {
      post();
      for (const thread of threads) thread.worker.postMessage({ end: true } satisfies ToLookupThread);
      fed = true;
      wake();
    },
    (error: unknown) => {
      failure ??= { error };
      wake();
    },
  );

  try {
    while (!signal.aborted) {
      const batch = ready.splice(0);
      for (const [id, outcome] of batch) {
        const entry = waiting.get(id);
        waiting.delete(id);
        if (entry !== undefined) order.settle(entry.ticket, () => report(entry.item, outcome));
      }
      if (batch.length > 0) {
        // No more input is pulled while stdout is behind: memory stays flat on any input size.
        await backpressure(output, signal);
        wake();
        continue;
      }
      if (failure !== undefined) throw failure.error;
      if (fed && threads.every((thread) => thread.done)) return;
      await new Promise<void>((resolve) => (wakeConsumer = resolve));
    }
  } finally {
    signal.removeEventListener('abort', wake);
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
    await feeding;
  }
}

function leastBusy(threads: readonly Thread[]): Thread {
  let best = threads[0] as Thread;
  for (const thread of threads) if (thread.outstanding < best.outstanding) best = thread;
  return best;
}
