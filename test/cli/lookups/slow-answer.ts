import { AdaptiveLimit } from '../../../src/cli/lookups/concurrency-limit.js';
import { CompletionOrder, InputOrder, ORDER_WINDOW, type ResultOrder } from '../../../src/cli/lookups/result-order.js';
import { Timeline } from './timeline.js';

/**
 * A simulated `lookup` run, on a clock of its own, of the real adaptive
 * limit and result order fed the way `lookUpEach` feeds them: a lookup
 * starts while fewer than `limit.current` are in flight, the order's window
 * has room and the pace allows. The service answers `capacity` lookups a
 * second in turn (a queue, then `latencyMs`), except one line, whose every
 * attempt would be answered after `slowMs`: the client gives each attempt
 * `timeoutMs`, retries twice after 500 and 1000 ms (each retry a `TIMEOUT`
 * push-back, as the observer seam reports it), then reports `TIMEOUT`
 * (push-back too). Deterministic; stops at `giveUpMs` of simulated time.
 */
export interface SlowAnswerRun {
  /** Lines reported a second, from the start to the last report (or to `giveUpMs`). */
  readonly perSecond: number;
  readonly reported: number;
  readonly elapsedMs: number;
  /** The lowest pace the limit set, if any (lookups a second). */
  readonly lowestPace: number | undefined;
}

export function simulateSlowAnswer(options: {
  readonly order: 'input' | 'completion';
  readonly lines: number;
  /** Index of the slow line (from 0). */
  readonly slowLine: number;
  readonly slowMs?: number;
  readonly timeoutMs?: number;
  readonly capacity?: number;
  readonly latencyMs?: number;
  readonly giveUpMs?: number;
}): SlowAnswerRun {
  const { lines, slowLine } = options;
  const slowMs = options.slowMs ?? 15_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const capacity = options.capacity ?? 5_000;
  const latencyMs = options.latencyMs ?? 2;
  const giveUpMs = options.giveUpMs ?? 600_000;
  let now = 0;
  let lowestPace: number | undefined;
  const limit = new AdaptiveLimit({
    now: () => now,
    onChange: (change) => {
      if (change.pace !== undefined) lowestPace = Math.min(lowestPace ?? Number.POSITIVE_INFINITY, change.pace);
    },
  });
  const order: ResultOrder = options.order === 'input' ? new InputOrder(ORDER_WINDOW) : new CompletionOrder();
  type Event = {
    readonly at: number;
    readonly kind: 'answer' | 'timeout' | 'retry' | 'wake';
    readonly line: number;
    readonly ticket: number;
    readonly startedAt: number;
    readonly attempt: number;
  };
  const timeline = new Timeline<Event>();
  const schedule = (event: Event): void => timeline.schedule(event);
  let serverFreeAt = 0;
  const attempt = (line: number, ticket: number, startedAt: number, attemptNo: number): void => {
    if (line === slowLine) {
      // Its answer would come after slowMs: the client's time-out comes first.
      schedule({ at: now + Math.min(slowMs, timeoutMs), kind: 'timeout', line, ticket, startedAt, attempt: attemptNo });
      return;
    }
    serverFreeAt = Math.max(now, serverFreeAt) + 1000 / capacity;
    schedule({ at: serverFreeAt + latencyMs, kind: 'answer', line, ticket, startedAt, attempt: attemptNo });
  };
  let started = 0;
  let inFlight = 0;
  let reported = 0;
  let lastReportAt = 0;
  let wakeAt = Number.POSITIVE_INFINITY;
  const fill = (): void => {
    while (started < lines && inFlight < limit.current && order.hasRoom()) {
      const delay = limit.delayMs();
      if (delay > 0) {
        if (wakeAt > now + delay) {
          wakeAt = now + delay;
          schedule({ at: wakeAt, kind: 'wake', line: -1, ticket: -1, startedAt: 0, attempt: 0 });
        }
        return;
      }
      const line = started;
      started += 1;
      inFlight += 1;
      attempt(line, order.ticket(), now, 1);
    }
  };
  const finish = (event: Event, pushedBack: boolean): void => {
    inFlight -= 1;
    limit.sample(event.startedAt, now - event.startedAt, pushedBack);
    order.settle(event.ticket, () => {
      reported += 1;
      lastReportAt = now;
    });
  };
  fill();
  while (reported < lines && now < giveUpMs) {
    const event = timeline.next();
    if (event === undefined) break;
    now = event.at;
    if (event.kind === 'answer') finish(event, false);
    else if (event.kind === 'timeout') {
      if (event.attempt < 3) {
        limit.pushBack(); // the retry event, reason TIMEOUT
        schedule({ ...event, at: now + 500 * 2 ** (event.attempt - 1), kind: 'retry' });
      } else finish(event, true);
    } else if (event.kind === 'retry') attempt(event.line, event.ticket, event.startedAt, event.attempt + 1);
    else if (event.at === wakeAt) wakeAt = Number.POSITIVE_INFINITY;
    fill();
  }
  const elapsedMs = reported < lines ? Math.max(now, giveUpMs) : lastReportAt;
  return { perSecond: (reported * 1000) / elapsedMs, reported, elapsedMs, lowestPace };
}
