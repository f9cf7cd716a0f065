import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Schedule, type SimFigures, simulate } from '../../helpers/burst-sim.js';

/*
 * The breaker's defaults against services that fail on a schedule, on fake
 * time (deterministic: seeded jitter). Each pattern is compared with a
 * client without a breaker run on the same schedule and seed.
 */

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** 503 for `burstMs` every `periodMs` (the first burst after `offsetMs`), 200 otherwise. */
const bursts =
  (burstMs: number, periodMs: number, offsetMs = periodMs / 2) =>
  (now: number): number =>
    (now - offsetMs + periodMs) % periodMs < burstMs ? 503 : 200;

/** The defaults and a breaker-less client on one schedule and seed. */
async function compare(schedule: Schedule, seed: number): Promise<{ defaults: SimFigures; none: SimFigures }> {
  const none = await simulate(schedule, { circuitBreaker: false }, seed);
  const defaults = await simulate(schedule, {}, seed);
  return { defaults, none };
}

describe('a service that fails in periodic bursts (simulated)', () => {
  it.each([1, 2])(
    '503 for 2 s every 10 s, 20 calls/s of distinct hashes: the default answers >= 80 % of what a breaker-less client does (seed %i)',
    async (seed) => {
      const { defaults, none } = await compare({ durationMs: 120_000, rate: 20, answer: bursts(2_000, 10_000) }, seed);
      // The breaker-less client answers about 82 % of the calls; the default used to answer about 10 %.
      expect(none.answered / none.calls).toBeGreaterThan(0.75);
      expect(defaults.answered).toBeGreaterThanOrEqual(0.8 * none.answered);
      // And it still spares the service during the bursts.
      expect(defaults.requests).toBeLessThan(none.requests);
    },
    60_000,
  );

  it('503 for 1 s every 4 s: the default answers what a breaker-less client does', async () => {
    const { defaults, none } = await compare({ durationMs: 60_000, rate: 20, answer: bursts(1_000, 4_000) }, 3);
    expect(defaults.answered).toBeGreaterThanOrEqual(0.95 * none.answered);
  }, 60_000);

  it('30 % of hashes hang (time-outs): the circuit never opens, every other hash is answered', async () => {
    const hanging = (_now: number, hash: string) => (Number.parseInt(hash.slice(-2), 16) % 10 < 3 ? 'hang' : 200);
    const schedule: Schedule = { durationMs: 30_000, rate: 20, answer: hanging };
    const none = await simulate(schedule, { circuitBreaker: false, timeoutMs: 2_000 }, 4);
    const defaults = await simulate(schedule, { timeoutMs: 2_000 }, 4);
    expect(defaults.circuitOpen).toBe(0);
    expect(defaults.answered).toBe(none.answered);
    expect(defaults.answered).toBeGreaterThanOrEqual(0.69 * defaults.calls);
  }, 60_000);
});

describe('a full outage (simulated): the short open time still sheds the load', () => {
  const down = (): number => 503;

  it('1,000 calls from 50 concurrent callers, every answer 503: at most 1.5 requests per call', async () => {
    const figures = await simulate({ durationMs: 0, rate: 0, callers: { count: 50, calls: 1_000 }, answer: down }, {});
    expect(figures.calls).toBe(1_000);
    expect(figures.answered).toBe(0);
    expect(figures.requests / figures.calls).toBeLessThanOrEqual(1.5);
    expect(figures.circuitOpen).toBeGreaterThan(800);
  }, 60_000);

  it('a minute down at 20 calls/s: probes every second, far below one request per call', async () => {
    const none = await simulate({ durationMs: 60_000, rate: 20, answer: down }, { circuitBreaker: false }, 5);
    const defaults = await simulate({ durationMs: 60_000, rate: 20, answer: down }, {}, 5);
    expect(defaults.requests / defaults.calls).toBeLessThanOrEqual(0.3);
    expect(defaults.requests).toBeLessThan(none.requests / 3);
  }, 60_000);
});
