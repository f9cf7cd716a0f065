/**
 * What the main thread and its lookup threads (`--workers N`) say to each
 * other. Hashes go out and outcomes come back in batches, each tagged with
 * the main thread's id for it; the main thread keeps the items, the output
 * and the resume state, so there is one of each whatever the thread count.
 */
import type { ConnectionFlags } from '../config.js';
import type { OutcomeView } from '../scan-row.js';

/** How each thread connects, and its share of the concurrency. */
export interface LookupThreadSetup {
  readonly flags: ConnectionFlags & { readonly 'api-key'?: string };
  /** `--concurrency N` split over the threads; `undefined`: each adapts on its own. */
  readonly pinned: number | undefined;
  readonly verbose: boolean;
  /** The thread's number (from 1), for `--verbose` lines. */
  readonly thread: number;
}

/** To a thread: hashes to look up, or `end` (no more will come: finish and say `done`). */
export type ToLookupThread =
  | { readonly ids: readonly number[]; readonly hashes: readonly string[] }
  | { readonly end: true };

/** From a thread: outcomes (in completion order), its current limit, or `done`. */
export type FromLookupThread =
  | { readonly outcomes: readonly (readonly [number, OutcomeView])[] }
  | { readonly limit: number }
  | { readonly done: true };

/** An outcome as plain data (a `HashScanError` does not cross threads whole). */
export function toView(outcome: OutcomeView): OutcomeView {
  switch (outcome.verdict) {
    case 'malicious':
      return {
        verdict: 'malicious',
        source: outcome.source,
        data: { first_seen: outcome.data?.first_seen, last_seen: outcome.data?.last_seen },
      };
    case 'not_detected':
      return { verdict: 'not_detected' };
    default:
      return { verdict: 'error', error: { code: outcome.error.code, message: outcome.error.message } };
  }
}
