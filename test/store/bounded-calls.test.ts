import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type BackoffListener,
  BoundedCalls,
  FIRST_BACKOFF_MS,
  MAX_BACKOFF_MS,
  type StoreFailure,
  UNAVAILABLE,
} from '../../src/store/bounded-calls.js';

type Told =
  | { kind: 'failed'; failure: StoreFailure; tag: string | undefined }
  | { kind: 'benched'; failure: StoreFailure; backoffMs: number }
  | { kind: 'resumed' }
  | { kind: 'skipped' };

/** A listener that writes down what it is told. */
function recorder(): { told: Told[]; listener: BackoffListener<string>; count: (kind: Told['kind']) => number } {
  const told: Told[] = [];
  return {
    told,
    listener: {
      failed: (failure, tag) => told.push({ kind: 'failed', failure, tag }),
      benched: (failure, backoffMs) => told.push({ kind: 'benched', failure, backoffMs }),
      resumed: () => told.push({ kind: 'resumed' }),
      skipped: () => told.push({ kind: 'skipped' }),
    },
    count: (kind) => told.filter((entry) => entry.kind === kind).length,
  };
}

/** A store whose calls answer, fail at once (`down`) or never answer (`stalled`), counting them. */
function store(mode: { down?: boolean; stalled?: boolean; failing?: ReadonlySet<string> }) {
  const counts = { calls: 0 };
  const get = (key: string): Promise<string> => {
    counts.calls += 1;
    if (mode.stalled) return new Promise<never>(() => {});
    if (mode.down || mode.failing?.has(key))
      return Promise.reject(Object.assign(new Error('down'), { code: 'ECONNREFUSED' }));
    return Promise.resolve(`value of ${key}`);
  };
  return { get, counts };
}

const TIMEOUT_MS = 50;

describe('BoundedCalls: one back-off policy for every outside store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('benches a dead store during a burst: every overlapping time-out counts, and the next burst is skipped', async () => {
    const { told, listener, count } = recorder();
    const calls = new BoundedCalls<string>(TIMEOUT_MS, listener);
    const { get, counts } = store({ stalled: true });
    const burst = Array.from({ length: 16 }, () => calls.run(() => get('k'), 'get'));
    // The time-out is decided after the poll phase (a setImmediate the fake clock runs on its next tick).
    await vi.advanceTimersByTimeAsync(TIMEOUT_MS + 1);
    await expect(Promise.all(burst)).resolves.toEqual(Array(16).fill(UNAVAILABLE));
    expect(count('failed')).toBe(16);
    expect(told.filter((entry) => entry.kind === 'benched')).toEqual([
      { kind: 'benched', failure: { reason: 'timeout' }, backoffMs: FIRST_BACKOFF_MS },
    ]);
    expect(calls.benched).toBe(true);
    expect(calls.skipsNow).toBe(true);

    const next = await Promise.all(Array.from({ length: 16 }, () => calls.run(() => get('k'), 'get')));
    expect(next).toEqual(Array(16).fill(UNAVAILABLE));
    expect(counts.calls).toBe(16); // nothing sent, nothing queued
    expect(count('skipped')).toBe(16);
  });

  it('benches a store that refuses a burst at once, telling the error code (never the message)', async () => {
    const { told, listener } = recorder();
    const calls = new BoundedCalls<string>(TIMEOUT_MS, listener);
    const { get } = store({ down: true });
    await Promise.all(Array.from({ length: 8 }, () => calls.run(() => get('k'), 'set')));
    expect(calls.benched).toBe(true);
    expect(told[0]).toEqual({ kind: 'failed', failure: { reason: 'error', code: 'ECONNREFUSED' }, tag: 'set' });
    expect(JSON.stringify(told)).not.toContain('down');
  });

  it('does not bench for two failing keys among many answered calls (not an outage)', async () => {
    const { listener, count } = recorder();
    const calls = new BoundedCalls<string>(TIMEOUT_MS, listener);
    const { get, counts } = store({ failing: new Set(['poisoned', 'forgotten']) });
    // Within one second, overlapping: each failing key asked twice among 36 others.
    const keys = Array.from({ length: 40 }, (_, i) =>
      i % 10 === 3 ? 'poisoned' : i % 10 === 7 ? 'forgotten' : `k${i}`,
    );
    const values = await Promise.all(keys.map((key) => calls.run(() => get(key), 'get')));
    expect(count('failed')).toBe(8);
    expect(count('benched')).toBe(0);
    expect(calls.benched).toBe(false);
    expect(values.filter((value) => value !== UNAVAILABLE)).toHaveLength(32);
    await expect(calls.run(() => get('k1'), 'get')).resolves.toBe('value of k1');
    expect(counts.calls).toBe(41);
  });

  it('does not bench for failures spread over more than a second', async () => {
    const { listener, count } = recorder();
    const calls = new BoundedCalls<string>(TIMEOUT_MS, listener);
    const { get } = store({ down: true });
    for (let second = 0; second < 5; second++) {
      await calls.run(() => get('k'));
      await calls.run(() => get('k'));
      await vi.advanceTimersByTimeAsync(1_001);
    }
    expect(count('failed')).toBe(10);
    expect(count('benched')).toBe(0);
  });

  it('probes one call at a time, doubling the wait after each failed probe up to 5 s, then resumes with a fresh count', async () => {
    const { listener, count } = recorder();
    const calls = new BoundedCalls<string>(TIMEOUT_MS, listener);
    const mode = { down: true };
    const { get, counts } = store(mode);
    for (let i = 0; i < 3; i++) await calls.run(() => get('k'));
    expect(calls.benched).toBe(true);
    const waits: number[] = [];
    for (let round = 0; round < 5; round++) {
      let waited = 0;
      const before = counts.calls;
      while (counts.calls === before) {
        await vi.advanceTimersByTimeAsync(100);
        waited += 100;
        await Promise.all([calls.run(() => get('k')), calls.run(() => get('k'))]);
      }
      expect(counts.calls).toBe(before + 1); // one probe, the other call skipped
      waits.push(waited);
    }
    expect(waits).toEqual([FIRST_BACKOFF_MS, 2_000, 4_000, MAX_BACKOFF_MS, MAX_BACKOFF_MS]);
    expect(count('benched')).toBe(1); // failed probes are no new bench

    mode.down = false;
    await vi.advanceTimersByTimeAsync(MAX_BACKOFF_MS);
    await expect(calls.run(() => get('k'))).resolves.toBe('value of k');
    expect(calls.benched).toBe(false);
    expect(count('resumed')).toBe(1);
    mode.down = true;
    await calls.run(() => get('k'));
    await calls.run(() => get('k'));
    expect(calls.benched).toBe(false); // the failures before the bench are forgotten
  });

  it('steps aside at once on a reply out of range, however healthy the store looks', async () => {
    const { told, listener } = recorder();
    const calls = new BoundedCalls<string>(TIMEOUT_MS, listener);
    const { get, counts } = store({});
    await Promise.all(Array.from({ length: 20 }, () => calls.run(() => get('pause'))));
    calls.outOfRange('PAUSE_OUT_OF_RANGE');
    const failure = { reason: 'out-of-range', code: 'PAUSE_OUT_OF_RANGE' };
    expect(told.slice(-2)).toEqual([
      { kind: 'failed', failure, tag: undefined },
      { kind: 'benched', failure, backoffMs: FIRST_BACKOFF_MS },
    ]);
    await expect(calls.run(() => get('pause'))).resolves.toBe(UNAVAILABLE);
    expect(counts.calls).toBe(20);
    await vi.advanceTimersByTimeAsync(FIRST_BACKOFF_MS);
    await expect(calls.run(() => get('pause'))).resolves.toBe('value of pause'); // the probe
    expect(calls.benched).toBe(false);
  });

  it('makes an undoing call (a lock release) while benched, without taking it for a probe', async () => {
    const { listener, count } = recorder();
    const calls = new BoundedCalls<string>(TIMEOUT_MS, listener);
    const { get } = store({});
    calls.outOfRange('LOCK_OUT_OF_RANGE');
    await expect(calls.run(() => get('lock'), undefined, true)).resolves.toBe('value of lock');
    expect(calls.benched).toBe(true);
    expect(count('resumed')).toBe(0);
    expect(count('skipped')).toBe(0);
  });
});
