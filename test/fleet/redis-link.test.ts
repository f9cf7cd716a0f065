import { afterEach, describe, expect, it, vi } from 'vitest';
import { RedisLink, UNAVAILABLE } from '../../src/fleet/redis-link.js';
import { NO_OBSERVERS } from '../../src/observe/observers.js';

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
});
