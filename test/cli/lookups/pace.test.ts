import { describe, expect, it } from 'vitest';
import { Pace, RateMeter } from '../../../src/cli/lookups/pace.js';
import { simulateRateLimited } from './rate-limited-service.js';

const measured = (perSecond: number, spanMs: number) => ({
  second: { perSecond, spanMs },
  recent: { perSecond, spanMs: Math.min(spanMs, 200) },
});

describe('the rate meter', () => {
  it('counts answers a second over the last second, and starts over after a pause', () => {
    const meter = new RateMeter();
    for (let t = 1000; t < 3000; t += 2) meter.finished(t); // 500 a second
    expect(meter.measure(3000).perSecond).toBeCloseTo(500, -1);
    expect(meter.measure(3000, 2).perSecond).toBeCloseTo(500, -1);
    meter.restart();
    expect(meter.measure(3000).spanMs).toBe(0);
    for (let t = 4000; t < 4500; t += 1) meter.finished(t); // 1000 a second since the pause
    const after = meter.measure(4500);
    expect(after.perSecond).toBeCloseTo(1000, -1);
    expect(after.spanMs).toBe(500);
  });
});

describe('the pace', () => {
  it('is none until push-back', () => {
    const pace = new Pace();
    for (let i = 0; i < 1000; i += 1) expect(pace.delayMs(0)).toBe(0);
    expect(pace.perSecond).toBeUndefined();
    expect(pace.probe(100_000)).toBe(false);
  });

  it('unpaced, takes what the service answered most recently; without a measure, half the send rate', () => {
    const fromMeasure = new Pace();
    fromMeasure.pushBack(0, measured(1200, 1000), 5000);
    expect(fromMeasure.perSecond).toBe(1200);
    const without = new Pace();
    without.pushBack(0, measured(1200, 50), 5000);
    expect(without.perSecond).toBe(2500);
  });

  it('paced, goes just under what the service answered, with its burst taken out of a short measure', () => {
    const pace = new Pace();
    pace.pushBack(0, measured(1200, 1000), 5000);
    // Everything sent at 1200 a second was answered for half a second: a bucket running dry.
    pace.pushBack(2000, measured(1200, 500), 5000);
    expect(pace.perSecond).toBeCloseTo((0.95 * 1200) / 1.2, 5);
  });

  it('spaces starts at the pace', () => {
    const pace = new Pace();
    pace.pushBack(0, measured(100, 1000), 5000);
    let started = 0;
    for (let now = 0; now < 10_000; now += 1) if (pace.delayMs(now) === 0) started += 1;
    expect(started).toBeGreaterThanOrEqual(995);
    expect(started).toBeLessThanOrEqual(1002);
    expect(pace.delayMs(10_000)).toBeGreaterThan(0);
  });

  it('probes a twentieth higher every ten seconds; a probe that meets push-back goes back, and the next waits twice as long', () => {
    const pace = new Pace();
    pace.pushBack(0, measured(1000, 1000), 5000);
    expect(pace.probe(9_999)).toBe(false);
    expect(pace.probe(10_000)).toBe(true);
    expect(pace.perSecond).toBe(1050);
    expect(pace.pushBack(12_000, measured(1050, 2000), 5000)).toBe('probe met push-back');
    expect(pace.perSecond).toBe(1000);
    expect(pace.probe(21_999)).toBe(false);
    expect(pace.probe(32_000)).toBe(true);
  });
});

describe('against a rate-limited service (simulated: a token bucket, 429 + Retry-After: 1 beyond)', () => {
  it.each([
    [200, 6_000],
    [1000, 30_000],
    [5000, 150_000],
  ])('at R = %i a second, keeps at least 0.85 R with at most 2 %% answered 429', (rate, lookups) => {
    for (const seed of [1, 2, 3]) {
      const run = simulateRateLimited({ rate, lookups, seed });
      expect(run.pace).toBeGreaterThanOrEqual(0.85);
      expect(run.share429).toBeLessThanOrEqual(0.02);
    }
  });
});
