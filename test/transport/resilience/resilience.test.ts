import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../../src/errors/configuration-error.js';
import { CircuitBreaker } from '../../../src/transport/resilience/circuit-breaker.js';
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

describe('CircuitBreaker', () => {
  it('opens after the threshold of consecutive failures, probes once after the cool-down, closes on success', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const breaker = new CircuitBreaker(3, 1_000);
    breaker.onFailure();
    breaker.onFailure();
    breaker.onSuccess(); // a healthy answer resets the run
    breaker.onFailure();
    breaker.onFailure();
    expect(breaker.state).toBe('closed');
    breaker.onFailure();
    expect(breaker.state).toBe('open');
    expect(breaker.admit()).toEqual({ admitted: false, retryInMs: 1_000 });
    vi.advanceTimersByTime(400);
    expect(breaker.admit()).toEqual({ admitted: false, retryInMs: 600 });
    vi.advanceTimersByTime(600);
    expect(breaker.state).toBe('half-open');
    expect(breaker.admit()).toEqual({ admitted: true });
    // Only one probe at a time.
    expect(breaker.admit()).toEqual({ admitted: false, retryInMs: 0 });
    breaker.onSuccess();
    expect(breaker.state).toBe('closed');
    expect(breaker.admit()).toEqual({ admitted: true });
  });

  it('reopens for a whole cool-down when the probe fails', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const breaker = new CircuitBreaker(1, 1_000);
    breaker.onFailure();
    vi.advanceTimersByTime(1_000);
    expect(breaker.admit().admitted).toBe(true);
    breaker.onFailure();
    expect(breaker.state).toBe('open');
    expect(breaker.admit()).toEqual({ admitted: false, retryInMs: 1_000 });
  });

  it('lets another probe through when the first never reports, after one cool-down', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const breaker = new CircuitBreaker(1, 100);
    breaker.onFailure();
    vi.advanceTimersByTime(100);
    expect(breaker.admit().admitted).toBe(true);
    vi.advanceTimersByTime(99);
    expect(breaker.admit().admitted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(breaker.admit().admitted).toBe(true);
  });

  it('frees the probe slot when the probe ends without evidence (aborted)', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const breaker = new CircuitBreaker(1, 10);
    breaker.onFailure();
    vi.advanceTimersByTime(10);
    expect(breaker.admit().admitted).toBe(true);
    expect(breaker.admit().admitted).toBe(false);
    breaker.onNeutral();
    expect(breaker.admit().admitted).toBe(true);
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
  it('fills in the defaults, with the per-client cool-down', () => {
    expect(resolveResilience({}, 30_000)).toEqual({
      budget: 500,
      breaker: { failureThreshold: 5, cooldownMs: 30_000 },
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
  it('counts requests and retries, and refuses retries once the budget or the circuit says so', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const resilience = new Resilience({
      budget: 12,
      breaker: { failureThreshold: 3, cooldownMs: 100 },
      rate: undefined,
      maxPauseMs: 1_000,
    });
    const timeout = resilience.failed('TIMEOUT', new Error('t'));
    expect(resilience.spendRetry(timeout)).toBe(10);
    expect(resilience.spendRetry(new Error('n'))).toBeUndefined();
    resilience.failed('NETWORK', new Error('n'));
    expect(resilience.stats()).toMatchObject({ retries: 1, retriesDenied: 1, retryTokens: 2, circuit: 'closed' });
    resilience.failed('NETWORK', new Error('n'));
    expect(resilience.stats().circuit).toBe('open');
    resilience.succeeded(0);
    expect(resilience.spendRetry(new Error('x'))).toBeUndefined();
    expect(resilience.admit()).toMatchObject({ admitted: false });
    expect(resilience.stats()).toMatchObject({ rejectedByCircuit: 1, requests: 0, retryTokens: 3 });
  });

  it('treats 429 as neither health nor failure, 5xx and 408 as failures, other answers as health', () => {
    const resilience = new Resilience({
      budget: undefined,
      breaker: { failureThreshold: 2, cooldownMs: 100 },
      rate: undefined,
      maxPauseMs: 1_000,
    });
    const headers = (retryAfter: string | null) => ({ get: () => retryAfter });
    resilience.answered({ status: 503, headers: headers(null) });
    resilience.answered({ status: 429, headers: headers('1') });
    resilience.answered({ status: 429, headers: headers(null) });
    expect(resilience.stats().circuit).toBe('closed');
    resilience.answered({ status: 408, headers: headers(null) });
    expect(resilience.stats().circuit).toBe('open');
    expect(resilience.spendRetry(new Error('x'))).toBeUndefined();
    expect(resilience.stats()).toMatchObject({ retryTokens: undefined });
  });

  it('retries freely without a budget and reports the breaker as disabled', () => {
    const resilience = new Resilience({ budget: undefined, breaker: undefined, rate: undefined, maxPauseMs: 0 });
    for (let i = 0; i < 1_000; i++) expect(resilience.spendRetry(resilience.failed('TIMEOUT', {}))).toBe(0);
    resilience.failed('ABORTED', {});
    expect(resilience.stats()).toMatchObject({ circuit: 'disabled', retries: 1_000, retryTokens: undefined });
    resilience.answered({ status: 429, headers: { get: () => '30' } });
    expect(resilience.pass(undefined, aborted)).toBeUndefined(); // maxPauseMs 0: no whole-client pause
  });
});
