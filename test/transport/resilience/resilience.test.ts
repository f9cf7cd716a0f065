import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../../src/errors/configuration-error.js';
import {
  DEFAULT_MAX_PAUSE_MS,
  INITIAL_RETRY_TOKENS,
  RETRY_COST,
  TIMEOUT_RETRY_COST,
} from '../../../src/transport/resilience/constants.js';
import { RateGate } from '../../../src/transport/resilience/rate-gate.js';
import { Resilience } from '../../../src/transport/resilience/resilience.js';
import { resolveResilience } from '../../../src/transport/resilience/resilience-options.js';
import { RetryBudget } from '../../../src/transport/resilience/retry-budget.js';

afterEach(() => {
  vi.useRealTimers();
});

const aborted = (): Error => new Error('aborted');

describe('RetryBudget', () => {
  it('pays 5 per retry, 10 after a time-out, and refuses when it cannot pay', () => {
    const budget = new RetryBudget(22);
    expect(budget.acquire(false)).toBe(RETRY_COST);
    expect(budget.acquire(true)).toBe(TIMEOUT_RETRY_COST);
    expect(budget.available).toBe(7);
    expect(budget.acquire(true)).toBeUndefined();
    expect(budget.acquire(false)).toBe(5);
    expect(budget.acquire(false)).toBeUndefined();
    expect(budget.available).toBe(2);
  });

  it('refills 1 per plain success, the retry cost after a retried success, never above capacity', () => {
    const budget = new RetryBudget(INITIAL_RETRY_TOKENS);
    budget.acquire(true);
    budget.acquire(true);
    budget.release(0);
    expect(budget.available).toBe(481);
    budget.release(10);
    expect(budget.available).toBe(491);
    budget.release(10);
    expect(budget.available).toBe(500);
  });

  it('drains after capacity / cost retries in an outage', () => {
    const budget = new RetryBudget();
    let retries = 0;
    while (budget.acquire(false) !== undefined) retries += 1;
    expect(retries).toBe(INITIAL_RETRY_TOKENS / RETRY_COST);
  });
});

describe('RateGate', () => {
  it('lets attempts through without a promise when nothing holds them', () => {
    const gate = new RateGate(undefined, DEFAULT_MAX_PAUSE_MS);
    expect(gate.pass(undefined, aborted)).toBeUndefined();
    expect(gate.throttledMs).toBe(0);
  });

  it('holds every attempt during a pause, capped at maxPauseMs, and counts the time', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const gate = new RateGate(undefined, 5_000);
    gate.pause(60_000);
    expect(gate.paused).toBe(true);
    let passed = 0;
    for (let i = 0; i < 3; i++) void gate.pass(undefined, aborted)?.then(() => passed++);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(passed).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(passed).toBe(3);
    expect(gate.paused).toBe(false);
    expect(gate.throttledMs).toBe(15_000);
  });

  it('keeps waiting when the pause is extended during the wait', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const gate = new RateGate(undefined, 60_000);
    gate.pause(1_000);
    let passed = false;
    void gate.pass(undefined, aborted)?.then(() => {
      passed = true;
    });
    await vi.advanceTimersByTimeAsync(500);
    gate.pause(2_000); // until t = 2500
    await vi.advanceTimersByTimeAsync(1_000);
    expect(passed).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(passed).toBe(true);
  });

  it('spaces attempts to requestsPerSecond after a burst', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const gate = new RateGate({ requestsPerSecond: 10, burst: 2 }, DEFAULT_MAX_PAUSE_MS);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) void gate.pass(undefined, aborted)?.then(() => times.push(performance.now()));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(times).toEqual([0, 0, 100, 200, 300]);
  });

  it('rejects a waiting attempt when its signal aborts', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const gate = new RateGate(undefined, 60_000);
    gate.pause(10_000);
    const controller = new AbortController();
    const waiting = gate.pass(controller.signal, aborted);
    controller.abort();
    await expect(waiting).rejects.toThrow('aborted');
  });
});

describe('resolveResilience', () => {
  it('fills in the defaults: a short, fixed open time (maxCooldownMs = cooldownMs), no back-off unless asked', () => {
    expect(resolveResilience({})).toEqual({
      budget: 500,
      breaker: {
        failureRatio: 0.5,
        minimumCalls: 20,
        windowMs: 30_000,
        failureThreshold: 10,
        cooldownMs: 1_000,
        maxCooldownMs: 1_000,
        halfOpenProbes: 3,
      },
      rate: undefined,
      maxPauseMs: 60_000,
    });
    expect(resolveResilience({ circuitBreaker: { cooldownMs: 5_000 } }).breaker).toMatchObject({
      cooldownMs: 5_000,
      maxCooldownMs: 5_000,
    });
    expect(resolveResilience({ circuitBreaker: { maxCooldownMs: 60_000 } }).breaker).toMatchObject({
      cooldownMs: 1_000,
      maxCooldownMs: 60_000,
    });
    expect(resolveResilience({}, 30_000).breaker).toMatchObject({ cooldownMs: 30_000, maxCooldownMs: 30_000 });
    expect(resolveResilience({ circuitBreaker: false })).toEqual({
      budget: 500,
      breaker: undefined,
      rate: undefined,
      maxPauseMs: 60_000,
    });
    expect(
      resolveResilience({ retryBudget: false, circuitBreaker: false, rateLimit: { requestsPerSecond: 2.5 } }, 1),
    ).toEqual({
      budget: undefined,
      breaker: undefined,
      rate: { requestsPerSecond: 2.5, burst: 3 },
      maxPauseMs: 60_000,
    });
  });

  it.each([
    [{ retryBudget: { capacity: -1 } }, 'retryBudget.capacity'],
    [{ retryBudget: 'yes' }, 'retryBudget'],
    [{ circuitBreaker: { failureThreshold: 0 } }, 'circuitBreaker.failureThreshold'],
    [{ circuitBreaker: { cooldownMs: 1.5 } }, 'circuitBreaker.cooldownMs'],
    [{ circuitBreaker: { failureRatio: 0 } }, 'circuitBreaker.failureRatio'],
    [{ circuitBreaker: { failureRatio: 1.5 } }, 'circuitBreaker.failureRatio'],
    [{ circuitBreaker: { minimumCalls: 0 } }, 'circuitBreaker.minimumCalls'],
    [{ circuitBreaker: { windowMs: -1 } }, 'circuitBreaker.windowMs'],
    [{ circuitBreaker: { cooldownMs: 1_000, maxCooldownMs: 999 } }, 'circuitBreaker.maxCooldownMs'],
    [{ circuitBreaker: { halfOpenProbes: 0 } }, 'circuitBreaker.halfOpenProbes'],
    [{ rateLimit: { requestsPerSecond: 0 } }, 'rateLimit.requestsPerSecond'],
    [{ rateLimit: { requestsPerSecond: Number.NaN } }, 'rateLimit.requestsPerSecond'],
    [{ rateLimit: { burst: 3 } }, 'rateLimit.burst'],
    [{ rateLimit: { requestsPerSecond: 1, burst: 0 } }, 'rateLimit.burst'],
    [{ rateLimit: { maxPauseMs: -5 } }, 'rateLimit.maxPauseMs'],
  ])('refuses %j', (options, option) => {
    const error = (() => {
      try {
        resolveResilience(options as never, 1);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ option });
  });
});

describe('Resilience', () => {
  const breaker = {
    failureRatio: 0.5,
    minimumCalls: 100,
    windowMs: 10_000,
    failureThreshold: 2,
    cooldownMs: 100,
    maxCooldownMs: 100,
    halfOpenProbes: 1,
  };
  const headers = (retryAfter: string | null) => ({ get: () => retryAfter });

  it('counts requests and retries, and refuses retries once the budget or the circuit says so', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const resilience = new Resilience({ budget: 12, breaker, rate: undefined, maxPauseMs: 1_000 }, 'h.example');
    const [a, b, c] = [{}, {}, {}];
    expect(resilience.enter(a, 'scan', 0)).toBeUndefined();
    expect(resilience.enter(b, 'scan', 0)).toBeUndefined();
    resilience.sent();
    const timeout = resilience.failed(a, 'TIMEOUT', new Error('t'), false);
    expect(resilience.spendRetry(timeout, a)).toBe(10);
    expect(resilience.spendRetry(new Error('n'), a)).toBeUndefined(); // the budget is empty
    resilience.settle(a, false, false, 'x');
    expect(resilience.stats()).toMatchObject({ requests: 1, retries: 1, retriesDenied: 1, retryTokens: 2 });
    expect(resilience.stats().circuit).toBe('closed');
    resilience.failed(c, 'NETWORK', new Error('n'), false);
    resilience.settle(c, false, false, 'x'); // c was never admitted: nothing counts
    resilience.failed(b, 'NETWORK', new Error('n'), false);
    resilience.settle(b, false, false, 'y');
    expect(resilience.stats()).toMatchObject({
      circuit: 'open',
      circuits: { 'scan h.example': 'open' },
      circuitOpened: 1,
    });
    expect(resilience.enter({}, 'scan', 0)).toMatchObject({ code: 'CIRCUIT_OPEN', phase: 'connect' });
    expect(resilience.enter({}, 'other', 0)).toBeUndefined(); // another operation has its own breaker
    expect(resilience.stats()).toMatchObject({ rejectedByCircuit: 1 });
  });

  it('counts 500/502/503/504, time-outs and network failures; not 429, 408, 501, other answers or aborts', () => {
    const resilience = new Resilience({ budget: undefined, breaker, rate: undefined, maxPauseMs: 1_000 });
    const outcome = (run: (ticket: object) => void, subject: string) => {
      const ticket = {};
      resilience.enter(ticket, 'scan', 0);
      run(ticket);
      resilience.settle(ticket, false, false, subject);
    };
    let n = 0;
    for (const status of [429, 408, 501, 404, 200]) {
      outcome((t) => resilience.answered(t, { status, headers: headers('1') }), `s${n++}`);
    }
    outcome((t) => resilience.failed(t, 'ABORTED', {}, true), `s${n++}`);
    outcome((t) => resilience.failed(t, 'TIMEOUT', {}, true), `s${n++}`); // the caller's own time-out
    outcome((t) => resilience.failed(t, 'RESPONSE_TOO_LARGE', {}, false), `s${n++}`);
    expect(resilience.stats().circuit).toBe('closed');
    outcome((t) => resilience.answered(t, { status: 502, headers: headers(null) }), 'a');
    outcome((t) => resilience.failed(t, 'NETWORK', {}, false), 'b');
    expect(resilience.stats().circuit).toBe('open');
  });

  it('retries freely without a budget and reports the breaker as disabled', () => {
    const resilience = new Resilience({ budget: undefined, breaker: undefined, rate: undefined, maxPauseMs: 0 });
    const ticket = {};
    expect(resilience.enter(ticket, 'scan', 0)).toBeUndefined();
    for (let i = 0; i < 1_000; i++) {
      expect(resilience.spendRetry(resilience.failed(ticket, 'TIMEOUT', {}, false), ticket)).toBe(0);
    }
    resilience.settle(ticket, false, false, 'x');
    expect(resilience.stats()).toMatchObject({ circuit: 'disabled', circuits: {}, retries: 1_000 });
    resilience.answered(ticket, { status: 429, headers: headers('30') });
    expect(resilience.pass(undefined, aborted)).toBeUndefined(); // maxPauseMs 0: no whole-client pause
  });
});
