import { HashScanError } from '../errors/hashscan-error.js';
import type { AbortLike } from '../util/abort-like.js';
import { isIterable, streamConcurrent } from '../util/concurrency.js';
import { linkedSignal } from '../util/linked-signal.js';
import type { IndexedScanOutcome, ScanOutcome } from './scan-result.js';

/** What {@link scanStream} needs of the caller's options, checked. */
export interface StreamSettings {
  readonly concurrency: number;
  readonly signal: AbortSignal | undefined;
  readonly onProgress: ((progress: { readonly done: number; readonly total: number | undefined }) => void) | undefined;
}

/** Looks up one entry of any type; never rejects (errors become outcomes). */
export type EntryLookup = (input: unknown, signal: AbortLike) => Promise<ScanOutcome>;

/**
 * `scanIterable`: each outcome as soon as it settles, with its input index.
 * When the caller's signal aborts, nothing more is pulled, the lookups in
 * flight settle as `ABORTED` and are yielded, and the stream ends. The
 * stream is `streamConcurrent`'s own generator, each outcome made as it is
 * yielded: no generator of this module's own stands between the lookups
 * and the caller, since every layer costs promises and turns per outcome.
 */
export function scanStream(
  hashes: Iterable<unknown> | AsyncIterable<unknown>,
  settings: StreamSettings,
  lookup: EntryLookup,
): AsyncGenerator<IndexedScanOutcome, void, undefined> {
  if (!isIterable(hashes)) {
    throw new HashScanError({
      code: 'INVALID_HASH',
      message: 'scanIterable expects an iterable or async iterable of hashes',
    });
  }
  const stream = linkedSignal(settings.signal);
  const { onProgress } = settings;
  let done = 0;
  let total: number | undefined;
  let reported: number | undefined;
  return streamConcurrent(hashes, {
    concurrency: settings.concurrency,
    task: (input) => lookup(input, stream.signal),
    stop: stream.signal,
    cancel: stream.abort,
    onEnd: (count) => {
      total = count;
    },
    emit: (index, value): IndexedScanOutcome => {
      done += 1;
      reported = total;
      onProgress?.({ done, total });
      return { ...value, index };
    },
    onClose: (completed) => {
      // The source's end may show only after the last outcome: say the total once it is known.
      if (completed && onProgress !== undefined && done > 0 && reported === undefined && total === done) {
        onProgress({ done, total });
      }
      stream.dispose();
    },
  });
}
