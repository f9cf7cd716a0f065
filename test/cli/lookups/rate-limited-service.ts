import { AdaptiveLimit, type LimitChange } from '../../../src/cli/lookups/concurrency-limit.js';
import { Timeline } from './timeline.js';

/**
 * A simulated run of the adaptive limit against a rate-limited service, on a
 * clock of its own: a token bucket admitting `rate` lookups a second (a
 * tenth of a second's worth of burst), answering after `latencyMs` plus a
 * little jitter, and 429 with `Retry-After` beyond. The client side is what
 * `lookup` does: a lookup holds its slot through its retry, and a 429 pauses
 * every new attempt for `Retry-After` (the client's rate gate) and is push-back
 * for the limit. Deterministic: the jitter comes from a seeded generator.
 */
export interface SimulatedRun {
  /** Lookups answered a second, over the whole run, against `rate`. */
  readonly pace: number;
  /** Share of requests answered 429. */
  readonly share429: number;
  readonly changes: readonly LimitChange[];
}

export function simulateRateLimited(options: {
  readonly rate: number;
  readonly lookups: number;
  readonly latencyMs?: number;
  readonly retryAfterMs?: number;
  readonly seed?: number;
}): SimulatedRun {
  const { rate, lookups } = options;
  const latencyMs = options.latencyMs ?? 20;
  const retryAfterMs = options.retryAfterMs ?? 1000;
  let seed = options.seed ?? 1;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  let now = 0;
  const changes: LimitChange[] = [];
  const limit = new AdaptiveLimit({ now: () => now, onChange: (change) => changes.push(change) });
  const burst = Math.max(1, rate / 10);
  let tokens = burst;
  let filled = 0;
  const admit = (): boolean => {
    tokens = Math.min(burst, tokens + ((now - filled) / 1000) * rate);
    filled = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
  // Events: [time, kind, startedAt], on a timeline sorted by time.
  type Event = {
    readonly at: number;
    readonly kind: 'answer' | 'retry' | 'wake' | 'resume';
    readonly startedAt: number;
  };
  const timeline = new Timeline<Event>();
  const schedule = (event: Event): void => timeline.schedule(event);
  let pausedUntil = 0;
  let started = 0;
  let inFlight = 0;
  let answered = 0;
  let refused = 0;
  const attempt = (startedAt: number): void => {
    if (now < pausedUntil) {
      schedule({ at: pausedUntil, kind: 'retry', startedAt });
      return;
    }
    if (admit()) {
      schedule({ at: now + latencyMs + random() * 2, kind: 'answer', startedAt });
      return;
    }
    refused += 1;
    limit.pushBack();
    if (now >= pausedUntil) schedule({ at: now + retryAfterMs, kind: 'resume', startedAt: 0 });
    pausedUntil = Math.max(pausedUntil, now + retryAfterMs);
    schedule({ at: pausedUntil, kind: 'retry', startedAt });
  };
  let wakeAt = Number.POSITIVE_INFINITY;
  const fill = (): void => {
    while (started < lookups && inFlight < limit.current && now >= pausedUntil) {
      const delay = limit.delayMs();
      if (delay > 0) {
        if (wakeAt > now + delay) {
          wakeAt = now + delay;
          schedule({ at: wakeAt, kind: 'wake', startedAt: 0 });
        }
        return;
      }
      started += 1;
      inFlight += 1;
      attempt(now);
    }
  };
  fill();
  while (answered < lookups) {
    const event = timeline.next();
    if (event === undefined) {
      now = Math.max(now, pausedUntil);
      fill();
      continue;
    }
    now = event.at;
    if (event.kind === 'retry') attempt(event.startedAt);
    else if (event.kind === 'resume') {
      if (now >= pausedUntil) limit.resumed();
      else schedule({ at: pausedUntil, kind: 'resume', startedAt: 0 });
    } else if (event.kind === 'wake') {
      if (event.at === wakeAt) wakeAt = Number.POSITIVE_INFINITY;
    } else {
      answered += 1;
      inFlight -= 1;
      limit.sample(event.startedAt, now - event.startedAt, false);
    }
    fill();
  }
  return { pace: ((answered / now) * 1000) / rate, share429: refused / (refused + answered), changes };
}
