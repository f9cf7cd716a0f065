import { type Sandbox, startSandbox } from '../../sandbox/index.js';
import { type ConnectionFlags, connectHashScan } from '../config.js';
import type { Diagnostics } from '../io.js';
import { lookUpEach } from '../lookup-pipeline.js';
import type { Progress } from '../progress.js';
import type { OutcomeView } from '../scan-row.js';
import { builtThreadFile } from '../thread-file.js';
import { ADAPTIVE_MAX, chooseLimit } from './choose-limit.js';
import { lookUpOnThreads } from './on-threads.js';
import type { ResultOrder } from './result-order.js';
import type { LookupThreadSetup } from './thread-messages.js';

/** How `scan` and `lookup` look up: threads, concurrency, connection. */
export interface LookupSettings {
  readonly flags: ConnectionFlags & { readonly 'api-key'?: string };
  /** `--concurrency N` (in all, over every thread); `undefined`: adaptive. */
  readonly pinned: number | undefined;
  /** `--workers N`; 1: lookups on the main thread. */
  readonly workers: number;
}

/** The lookup stage of a command: items in, one report per item. */
export interface Lookups {
  run<T>(
    /** Items in batches (the lines of a chunk read, one hashed file). */
    items: AsyncIterable<readonly T[]>,
    hashOf: (item: T) => string | undefined,
    options: { readonly signal: AbortSignal; readonly unlooked?: (item: T) => void; readonly order?: ResultOrder },
    report: (item: T, outcome: OutcomeView) => void,
    output: NodeJS.WritableStream,
  ): Promise<void>;
  close(): Promise<void>;
}

/**
 * Connects (a configuration error is a usage error here, before any work)
 * and returns the lookup stage: on this thread, or spread over `--workers`
 * lookup threads, each with its own event loop, client and limit (the
 * pinned concurrency split between them). Run from source (no built thread
 * file), threads fall back to this thread.
 */
export async function prepareLookups(
  settings: LookupSettings,
  diagnostics: Diagnostics,
  progress: Progress,
): Promise<Lookups> {
  const threadFile = settings.workers > 1 ? builtThreadFile('cli-lookup-thread', import.meta.url) : undefined;
  if (threadFile === undefined) {
    const { limit, observers } = chooseLimit(settings.pinned, diagnostics, progress);
    const connection = await connectHashScan(settings.flags, settings.pinned ?? ADAPTIVE_MAX, diagnostics, observers);
    return {
      run: (items, hashOf, options, report, output) =>
        lookUpEach(connection.client, items, hashOf, { ...options, limit }, report, output),
      close: () => connection.close(),
    };
  }
  // The threads reach the in-process sandbox over loopback like any service.
  const sandbox: Sandbox | undefined = settings.flags.sandbox === true ? await startSandbox() : undefined;
  const flags = {
    ...settings.flags,
    sandbox: false,
    ...(sandbox === undefined ? {} : { 'base-url': sandbox.hashScanUrl, 'api-key': sandbox.apiKey }),
  };
  // Checked here, once: a missing key or a bad URL is a usage error before any thread starts.
  await (
    await connectHashScan(flags, 1, diagnostics).catch(async (error: unknown) => {
      await sandbox?.close();
      throw error;
    })
  ).close();
  const { workers, pinned } = settings;
  const setups: LookupThreadSetup[] = Array.from({ length: workers }, (_, i) => ({
    flags,
    pinned: pinned === undefined ? undefined : Math.max(1, Math.round(pinned / workers)),
    verbose: diagnostics.verbose,
    thread: i + 1,
  }));
  return {
    run: (items, hashOf, options, report, output) =>
      lookUpOnThreads(
        threadFile,
        setups,
        items,
        hashOf,
        {
          ...options,
          onLimit: (total) => {
            progress.counters.limit = total;
          },
        },
        report,
        output,
      ),
    close: async () => {
      await sandbox?.close();
    },
  };
}
