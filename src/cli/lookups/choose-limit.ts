import type { HashScanClient } from '../../index.js';
import type { Diagnostics } from '../io.js';
import type { Progress } from '../progress.js';
import { AdaptiveLimit, type ConcurrencyLimit, FixedLimit } from './concurrency-limit.js';
import { watchPushBack } from './status-watch.js';

/** Connections the agent may open when the limit adapts: as many as it may grow to. */
export const ADAPTIVE_MAX = 1024;

/**
 * `--concurrency N` pins the limit; without it the limit adapts, fed by
 * each lookup's latency and outcome and by the 429/503 answers seen on the
 * agent. Shown in the progress line; each change logged with `--verbose`.
 */
export function chooseLimit(
  pinned: number | undefined,
  { agent }: { readonly client: HashScanClient; readonly agent: object },
  diagnostics: Diagnostics,
  progress: Progress,
): ConcurrencyLimit {
  if (pinned !== undefined) {
    progress.counters.limit = pinned;
    return new FixedLimit(pinned);
  }
  const limit = new AdaptiveLimit({
    max: ADAPTIVE_MAX,
    onChange: (change) => {
      progress.counters.limit = change.to;
      if (!diagnostics.verbose) return;
      progress.clear();
      const latency = `median ${change.medianMs.toFixed(1)} ms, best ${change.baseMs.toFixed(1)} ms`;
      diagnostics.line(`hashscan-sms: concurrency ${change.from} → ${change.to} (${change.why}; ${latency})`);
    },
  });
  watchPushBack(agent, () => limit.pushBack());
  progress.counters.limit = limit.current;
  return limit;
}
