import { afterEach, describe, expect, it, vi } from 'vitest';
import { NO_OBSERVERS, Observers } from '../../src/observe/observers.js';
import { RedisLink, UNAVAILABLE } from '../../src/redis/redis-link.js';

/** A node-redis-shaped client whose commands never answer (a stalled Redis). */
const stalled = {
  isReady: true,
  options: { disableOfflineQueue: true },
  sendCommand: () => new Promise<never>(() => {}),
};

describe('RedisLink', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('times a stalled call out where the runtime has no setImmediate (a Worker without nodejs_compat)', async () => {
    vi.stubGlobal('setImmediate', undefined);
    const link = new RedisLink(stalled as never, { timeoutMs: 20, observers: NO_OBSERVERS, name: 'sms' });
    const outcome = await Promise.race([
      link.command(['GET', 'key']),
      new Promise((resolve) => setTimeout(resolve, 2_000, 'still waiting')),
    ]);
    expect(outcome).toBe(UNAVAILABLE);
    expect(link.counters.errors).toBe(1);
  });

  it("steps aside on a share of a second's failures, not on one; once on a reply out of range; says so once each way", async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const mode = { down: true };
      const refusing = {
        isReady: true,
        options: { disableOfflineQueue: true },
        sendCommand: () =>
          mode.down ? Promise.reject(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })) : Promise.resolve('OK'),
      };
      const events: unknown[] = [];
      const observers = new Observers([{ types: ['fleet'], observe: (event) => events.push(event) }]);
      const link = new RedisLink(refusing as never, { timeoutMs: 20, observers, name: 'hashscan' });
      await link.command(['GET', 'a']);
      expect(link.down).toBe(false); // one failure is no outage
      await link.command(['GET', 'b']);
      await link.command(['GET', 'c']);
      expect(link.down).toBe(true);
      await expect(link.command(['GET', 'd'])).resolves.toBe(UNAVAILABLE);
      expect(link.counters).toEqual({ errors: 3, skipped: 1, outOfRange: 0 });
      mode.down = false;
      vi.advanceTimersByTime(1_000);
      await expect(link.command(['GET', 'e'])).resolves.toBe('OK'); // the probe
      expect(link.down).toBe(false);
      link.outOfRange('PAUSE_OUT_OF_RANGE');
      expect(link.down).toBe(true);
      expect(link.counters).toEqual({ errors: 4, skipped: 1, outOfRange: 1 });
      expect(events).toEqual([
        { type: 'fleet', client: 'hashscan', state: 'unavailable', code: 'ECONNREFUSED' },
        { type: 'fleet', client: 'hashscan', state: 'resumed' },
        { type: 'fleet', client: 'hashscan', state: 'unavailable', code: 'PAUSE_OUT_OF_RANGE' },
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});
