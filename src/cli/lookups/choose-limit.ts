import type { Observer } from '../../observe/events.js';
import type { Diagnostics } from '../io.js';
import type { Progress } from '../progress.js';
import { AdaptiveLimit, type ConcurrencyLimit, FixedLimit } from './concurrency-limit.js';

/** Connections the agent may open when the limit adapts: as many as it may grow to. */
export const ADAPTIVE_MAX = 1024;

/**
 * Why a retry is push-back: an HTTP error status the client retries (429, 5xx: the lookup client's
 * code is `HTTP_STATUS` for all of them), or no answer in time. A 429 with `Retry-After` also
 * pauses the rate gate, seen on its own.
 */
const PUSH_BACK = /^(HTTP_STATUS|HTTP_\d{3}|TIMEOUT)$/;

/**
 * `--concurrency N` pins the limit; without it the limit adapts, fed by
 * each lookup's latency and outcome and, through the client's observer
 * seam, by push-back as it happens: a retry scheduled after an HTTP error
 * status or a time-out, and the rate gate pausing for `Retry-After` (events only
 * built on failures: a normal answer costs nothing more); the gate's
 * resuming starts a new measure of the service's pace. Shown in the
 * progress line; each change logged with `--verbose`.
 */
export function chooseLimit(
  pinned: number | undefined,
  diagnostics: Diagnostics,
  progress: Progress,
): { readonly limit: ConcurrencyLimit; readonly observers: readonly Observer[] } {
  if (pinned !== undefined) {
    progress.counters.limit = pinned;
    return { limit: new FixedLimit(pinned), observers: [] };
  }
  const limit = new AdaptiveLimit({
    max: ADAPTIVE_MAX,
    onChange: (change) => {
      progress.counters.limit = change.to;
      progress.counters.pace = change.pace;
      if (!diagnostics.verbose) return;
      progress.clear();
      const latency = `median ${change.medianMs.toFixed(1)} ms, best ${change.baseMs.toFixed(1)} ms`;
      const pace = change.pace === undefined ? '' : `, paced ${Math.round(change.pace)}/s`;
      diagnostics.line(`hashscan-sms: concurrency ${change.from} → ${change.to}${pace} (${change.why}; ${latency})`);
    },
  });
  progress.counters.limit = limit.current;
  const pushBack: Observer = {
    types: ['retry', 'rate-gate'],
    observe: (event) => {
      if (event.type === 'rate-gate' && event.state === 'resumed') limit.resumed();
      else if (
        event.type === 'rate-gate' ? event.state === 'paused' : event.type === 'retry' && PUSH_BACK.test(event.reason)
      ) {
        limit.pushBack();
      }
    },
  };
  return { limit, observers: [pushBack] };
}
