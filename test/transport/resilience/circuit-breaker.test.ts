import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type BreakerSettings,
  type CallOutcome,
  CircuitBreaker,
  type Transition,
} from '../../../src/transport/resilience/circuit-breaker.js';

const SETTINGS: BreakerSettings = {
  failureRatio: 0.5,
  minimumCalls: 20,
  windowMs: 30_000,
  failureThreshold: 10,
  cooldownMs: 1_000,
  maxCooldownMs: 4_000,
  halfOpenProbes: 3,
};

let transitions: Transition[];
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['performance'] });
  transitions = [];
});
afterEach(() => {
  vi.useRealTimers();
});

/** A breaker without jitter (`random` 0: the full open time). */
function breaker(settings: Partial<BreakerSettings> = {}, random = () => 0): CircuitBreaker {
  return new CircuitBreaker({ ...SETTINGS, ...settings }, (change) => transitions.push(change), random);
}

/** One whole call: admitted, then settled with `outcome`; `false` when the breaker refused it. */
function call(b: CircuitBreaker, outcome: CallOutcome, subject?: string): boolean {
  const admission = b.admit();
  if (admission === undefined) return false;
  b.settle(admission, outcome, subject, performance.now());
  vi.advanceTimersByTime(1); // the next call starts later
  return true;
}

/** A deterministic stream of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('CircuitBreaker: what opens it', () => {
  it('stays closed when a tenth of the hashes always fail, over 100 000 calls', () => {
    const b = breaker();
    const random = seeded(7);
    for (let i = 0; i < 100_000; i++) {
      const hash = `h${Math.floor(random() * 5_000)}`;
      const bad = Number(hash.slice(1)) % 10 === 0;
      expect(call(b, bad ? 'failure' : 'success', hash)).toBe(true);
      vi.advanceTimersByTime(1);
    }
    expect(b.state).toBe('closed');
    expect(transitions).toEqual([]);
  });

  it('opens at the failure ratio once the window holds minimumCalls, and not before', () => {
    const b = breaker();
    for (let i = 0; i < 9; i++) {
      call(b, 'failure', `f${i}`);
      call(b, 'success');
    }
    call(b, 'failure', 'f9'); // 10 of 19: below minimumCalls
    expect(b.state).toBe('closed');
    call(b, 'success'); // 10 of 20, but a success never opens it
    expect(b.state).toBe('closed');
    call(b, 'failure', 'f10'); // 11 of 21
    expect(b.state).toBe('open');
    expect(transitions).toEqual([{ state: 'open', reason: '11 of 21 calls failed within 30000 ms', openMs: 1_000 }]);
  });

  it('forgets outcomes older than the window', () => {
    const b = breaker();
    for (let i = 0; i < 8; i++) call(b, 'failure', `old${i}`);
    for (let i = 0; i < 12; i++) call(b, 'success');
    expect(b.state).toBe('closed'); // 8 of 20
    vi.advanceTimersByTime(31_000);
    for (let i = 0; i < 9; i++) call(b, 'failure', `new${i}`) && i === 4 && call(b, 'success');
    expect(b.state).toBe('closed'); // 9 of 10 in the window (17 of 30 had the old ones stayed)
  });

  it('opens at once after failureThreshold distinct calls fail with no success since they started', () => {
    const b = breaker();
    for (let i = 0; i < 9; i++) call(b, 'failure', `a${i}`);
    vi.advanceTimersByTime(1);
    call(b, 'success'); // started after those nine: they no longer count
    for (let i = 0; i < 9; i++) call(b, 'failure', `b${i}`);
    expect(b.state).toBe('closed');
    call(b, 'failure', 'b9');
    expect(b.state).toBe('open');
    expect(transitions[0]?.reason).toBe('10 calls failed, none succeeded since they started');
  });

  it('orders calls by their start: failing calls that end together after their retries are not an outage', () => {
    const b = breaker();
    // 64 slow failing calls start, then successes keep starting and ending while they retry.
    const slow = Array.from({ length: 64 }, () => b.admit());
    for (let i = 0; i < 150; i++) call(b, 'success');
    const started = performance.now() - 250;
    for (const [i, admission] of slow.entries()) b.settle(admission as never, 'failure', `slow${i}`, started);
    expect(b.state).toBe('closed'); // 64 of 214 failed: below the ratio too
    expect(transitions).toEqual([]);
  });

  it('counts a hash that keeps failing once per window, however many calls ask for it', () => {
    const b = breaker({ failureThreshold: 3, minimumCalls: 4 });
    for (let i = 0; i < 1_000; i++) call(b, 'failure', 'the-bad-hash');
    call(b, 'failure', 'another');
    expect(b.state).toBe('closed'); // 2 failures counted, not 1 001
    vi.advanceTimersByTime(30_001);
    call(b, 'success');
    call(b, 'success');
    call(b, 'failure', 'the-bad-hash'); // a new window: it counts again (1 of 3)
    expect(b.state).toBe('closed');
    call(b, 'failure', 'the-bad-hash');
    call(b, 'failure', 'another');
    expect(b.state).toBe('open'); // 2 of 4 in the window
  });

  it('ignores neutral outcomes: they neither count nor reset the run', () => {
    const b = breaker({ failureThreshold: 2 });
    call(b, 'failure', 'x');
    for (let i = 0; i < 50; i++) call(b, 'neutral');
    call(b, 'failure', 'y');
    expect(b.state).toBe('open');
  });
});

describe('CircuitBreaker: open and half-open', () => {
  /** A breaker opened by its fast path. */
  function opened(settings: Partial<BreakerSettings> = {}, random?: () => number): CircuitBreaker {
    const b = breaker({ failureThreshold: 1, ...settings }, random);
    b.settle(b.admit() as never, 'failure', 'x', performance.now());
    expect(b.state).toBe('open');
    return b;
  }

  it('refuses calls while open, then lets halfOpenProbes through; a majority of successes closes it', () => {
    const b = opened();
    expect(b.admit()).toBeUndefined();
    expect(b.retryInMs()).toBe(1_000);
    vi.advanceTimersByTime(999);
    expect(b.admit()).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(b.state).toBe('half-open');
    const probes = [b.admit(), b.admit(), b.admit()];
    expect(probes.every((p) => p?.probe === true)).toBe(true);
    expect(b.admit()).toBeUndefined();
    b.settle(probes[0] as never, 'failure', 'x', performance.now()); // one unlucky probe does not reopen it
    expect(b.state).toBe('half-open');
    b.settle(probes[1] as never, 'success', undefined, performance.now());
    b.settle(probes[2] as never, 'success', undefined, performance.now());
    expect(b.state).toBe('closed');
    expect(transitions.map((t) => t.state)).toEqual(['open', 'half-open', 'closed']);
  });

  it('reopens when a majority of probes fail, for twice as long each time, up to maxCooldownMs', () => {
    const b = opened();
    const openTimes: number[] = [];
    for (let round = 0; round < 4; round++) {
      vi.advanceTimersByTime(b.retryInMs());
      const [p1, p2] = [b.admit(), b.admit()];
      b.settle(p1 as never, 'failure', 'x', performance.now());
      b.settle(p2 as never, 'failure', 'y', performance.now());
      expect(b.state).toBe('open');
      openTimes.push(b.retryInMs());
    }
    expect(openTimes).toEqual([2_000, 4_000, 4_000, 4_000]);
    vi.advanceTimersByTime(4_000);
    call(b, 'success');
    call(b, 'success');
    expect(b.state).toBe('closed');
    b.settle(b.admit() as never, 'failure', 'z', performance.now()); // closed again: the open time starts over
    expect(b.retryInMs()).toBe(1_000);
  });

  it('keeps a fixed open time when maxCooldownMs is cooldownMs (the default): failed probes do not lengthen it', () => {
    const b = opened({ maxCooldownMs: 1_000 });
    const openTimes: number[] = [];
    for (let round = 0; round < 5; round++) {
      vi.advanceTimersByTime(b.retryInMs());
      const [p1, p2] = [b.admit(), b.admit()];
      b.settle(p1 as never, 'failure', 'x', performance.now());
      b.settle(p2 as never, 'failure', 'y', performance.now());
      openTimes.push(b.retryInMs());
    }
    expect(openTimes).toEqual([1_000, 1_000, 1_000, 1_000, 1_000]);
  });

  it('draws up to a fifth off the open time at random', () => {
    expect(opened({}, () => 0.999).retryInMs()).toBe(800);
    expect(opened({}, () => 0.5).retryInMs()).toBe(900);
  });

  it('frees a probe slot for a neutral outcome, and all of them when probes never report', () => {
    const b = opened({ halfOpenProbes: 1 });
    vi.advanceTimersByTime(1_000);
    const probe = b.admit();
    expect(b.admit()).toBeUndefined();
    b.settle(probe as never, 'neutral', undefined, performance.now());
    const stuck = b.admit();
    expect(stuck?.probe).toBe(true);
    vi.advanceTimersByTime(1_000);
    expect(b.admit()?.probe).toBe(true); // the stuck probe held its slot for one cool-down
    b.settle(stuck as never, 'failure', 'x', performance.now()); // from an earlier period: ignored
    expect(b.state).toBe('half-open');
  });

  it('ignores outcomes of calls admitted before it opened, and refuses their retries', () => {
    const b = breaker({ failureThreshold: 2 });
    const early = b.admit();
    call(b, 'failure', 'x');
    call(b, 'failure', 'y');
    expect(b.state).toBe('open');
    expect(b.mayRetry(early as never)).toBe(false);
    vi.advanceTimersByTime(1_000);
    const probe = b.admit();
    expect(b.mayRetry(probe as never)).toBe(true);
    b.settle(early as never, 'success', undefined, performance.now());
    expect(b.state).toBe('half-open');
  });
});
