import { describe, expect, it } from 'vitest';
import type { Diagnostics } from '../../../src/cli/io.js';
import { chooseLimit } from '../../../src/cli/lookups/choose-limit.js';
import { AdaptiveLimit, FixedLimit, type LimitChange } from '../../../src/cli/lookups/concurrency-limit.js';
import type { Progress } from '../../../src/cli/progress.js';

/** An adaptive limit on a clock the test moves. */
function limitOnClock() {
  let now = 0;
  const changes: LimitChange[] = [];
  const limit = new AdaptiveLimit({ now: () => now, onChange: (change) => changes.push(change) });
  /** One window: the limit's worth of lookups of `latencyMs` (each started as the pipeline starts it), then time moves on a window. */
  const window = (latencyMs: number, pushedBack = false): number => {
    now += 150;
    const count = Math.max(16, limit.current);
    for (let i = 0; i < count; i += 1) limit.delayMs();
    for (let i = 0; i < count; i += 1) limit.sample(now - latencyMs, latencyMs, pushedBack && i === 0);
    return limit.current;
  };
  return { limit, window, changes, pushBack: () => limit.pushBack() };
}

describe('the adaptive concurrency limit', () => {
  it('starts at 16 and doubles while latency holds (slow start)', () => {
    const { window } = limitOnClock();
    expect([window(20), window(20), window(20), window(20)]).toEqual([32, 64, 128, 256]);
  });

  it('on push-back, paces its starts instead of growing: no more in flight than the pace can fill', () => {
    const { limit, window, pushBack, changes } = limitOnClock();
    window(20);
    window(20);
    window(20); // 128
    expect(limit.delayMs()).toBe(0); // unpaced: every start may go
    pushBack(); // a 429 on the wire
    window(20);
    expect(changes.at(-1)?.why).toBe('push-back');
    const pace = changes.at(-1)?.pace as number;
    expect(pace).toBeGreaterThan(0);
    // Starts now wait their turn: a bucket of a few, then one each 1000 / pace ms.
    let started = 0;
    while (limit.delayMs() === 0) started += 1;
    expect(started).toBeLessThanOrEqual(Math.max(1, pace / 50));
    // Latency holds for 3 s: the limit stops growing once it is ample for the pace.
    for (let i = 0; i < 20; i += 1) window(20);
    expect(limit.current).toBeLessThanOrEqual(Math.ceil((2 * pace * 20) / 1000) + 1);
  });

  it('after push-back, paces to what the service answered just before', () => {
    let now = 0;
    const changes: LimitChange[] = [];
    const limit = new AdaptiveLimit({ now: () => now, initial: 64, onChange: (change) => changes.push(change) });
    // A service answering 1000 lookups a second in 20 ms: one lookup ends every millisecond.
    for (let i = 0; i < 2000; i += 1) {
      now += 1;
      limit.delayMs();
      limit.sample(now - 20, 20, false);
    }
    limit.pushBack();
    for (let i = 0; i < 200; i += 1) {
      now += 1;
      limit.delayMs();
      limit.sample(now - 20, 20, false);
    }
    const paced = changes.find((change) => change.why === 'push-back');
    expect(paced?.pace).toBeCloseTo(1000, -2);
    // In flight: no more than twice what the pace fills at the best latency.
    expect(limit.current).toBe(Math.ceil((2 * (paced?.pace as number) * 20) / 1000) + 1);
  });

  it('shrinks once latency stays past one and a half times the best for two windows, not for one', () => {
    const { window, changes } = limitOnClock();
    for (let i = 0; i < 5; i += 1) window(20); // 512, slow start
    window(20); // 1024 (the maximum)
    // Out of slow start: a push-back cut, then latency rises.
    const { limit } = { limit: window(20, true) };
    expect(changes.at(-1)?.why).toBe('push-back');
    // The quiet after a push-back (lookups waiting out Retry-After arrive late): not judged.
    for (let i = 0; i < 11; i += 1) window(20);
    const before = window(20);
    // A window is judged when the next one begins (its first lookup ends after the window's time).
    expect(window(60)).toBe(before);
    expect(window(60)).toBe(before); // one slow window: noise
    expect(window(60)).toBeLessThan(before); // two: a queue
    expect(changes.at(-1)?.why).toBe('latency rising');
    expect(limit).toBeGreaterThan(0);
  });

  it('sets no pace on push-back met while feeding is held by something else (the order window, stdout)', () => {
    let now = 0;
    const changes: LimitChange[] = [];
    const limit = new AdaptiveLimit({ now: () => now, onChange: (change) => changes.push(change) });
    for (let i = 0; i < 2000; i += 1) {
      now += 1;
      limit.delayMs();
      limit.sample(now - 20, 20, false);
    }
    // One lookup in flight, nothing asked to start for seconds: a time-out then is a slow answer, not a rate.
    limit.delayMs();
    now += 10_000;
    limit.pushBack();
    limit.sample(now - 10_000, 10_000, true);
    for (let i = 0; i < 200; i += 1) {
      now += 1;
      limit.delayMs();
      limit.sample(now - 20, 20, false);
    }
    expect(changes.filter((change) => change.pace !== undefined)).toEqual([]);
    expect(limit.delayMs()).toBe(0);
    // Pressing again, a push-back paces as before.
    limit.pushBack();
    for (let i = 0; i < 200; i += 1) {
      now += 1;
      limit.delayMs();
      limit.sample(now - 20, 20, false);
    }
    expect(changes.find((change) => change.why === 'push-back')?.pace).toBeCloseTo(1000, -2);
  });

  it('ignores lookups that never went over the network (cache hits)', () => {
    const { window } = limitOnClock();
    expect(window(0.01)).toBe(16);
  });

  it('is pinned with --concurrency', () => {
    const fixed = new FixedLimit(256);
    fixed.sample();
    fixed.pushBack();
    expect(fixed.current).toBe(256);
    expect(fixed.adaptive).toBe(false);
  });
});

describe('push-back through the observer seam', () => {
  it('reads retries after an HTTP error status or a time-out, and rate-gate pauses, as push-back, and the gate resuming as a new measure; nothing else', () => {
    const diagnostics = { verbose: false } as unknown as Diagnostics;
    const progress = { counters: {} } as unknown as Progress;
    const { limit, observers } = chooseLimit(undefined, diagnostics, progress);
    const seen: string[] = [];
    (limit as AdaptiveLimit).pushBack = () => {
      seen.push('push-back');
    };
    (limit as AdaptiveLimit).resumed = () => {
      seen.push('resumed');
    };
    const [observer] = observers;
    expect(observer?.types).toEqual(['retry', 'rate-gate']);
    const retry = (reason: string) =>
      ({
        type: 'retry',
        client: 'hashscan',
        op: undefined,
        attempt: 1,
        delayMs: 100,
        reason,
        kind: 'backoff',
      }) as const;
    for (const reason of ['HTTP_STATUS', 'TIMEOUT', 'HTTP_503', 'NETWORK', 'INVALID_JSON'])
      observer?.observe(retry(reason));
    observer?.observe({ type: 'rate-gate', client: 'hashscan', op: undefined, state: 'paused', waitMs: 1000 });
    observer?.observe({ type: 'rate-gate', client: 'hashscan', op: undefined, state: 'resumed' });
    expect(seen).toEqual(['push-back', 'push-back', 'push-back', 'push-back', 'resumed']);
    expect(chooseLimit(64, diagnostics, progress).observers).toEqual([]);
  });
});
