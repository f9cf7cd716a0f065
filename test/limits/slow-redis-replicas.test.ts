import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasRedisServer, type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import { type RedisCondition, runScenario } from './limits-scenario.js';

/*
 * Issue 28, finding 4, with real processes: `perHour: 3, dailyBudget: 5`,
 * three sends to one number already made, then three replicas (child
 * processes, ioredis and node-redis, the default `fleet.timeoutMs`) keep
 * sending to it every 100 ms for 3 s while their Redis is slowed by 100 ms
 * (a delaying TCP proxy), jittered by 10–90 ms, or stopped (SIGSTOP of a
 * redis-server of this test's own). At most one extra send per replica.
 */
describe.skipIf(!hasRedisServer())('SMS limits under a slow or stalled Redis, three replica processes', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  const run = (condition: RedisCondition, onStoreFailure?: 'refuse') =>
    runScenario({
      redis,
      replicas: 3,
      condition,
      durationMs: 3_000,
      intervalMs: 100,
      ...(onStoreFailure && { onStoreFailure }),
    });

  it.each(['slow', 'jitter', 'stall'] as const)(
    "default ('local'), Redis %s: at most one extra send per replica",
    async (condition) => {
      const { perReplica, extra, reports } = await run(condition);
      expect(
        perReplica.every((delivered) => delivered <= 1),
        JSON.stringify(perReplica),
      ).toBe(true);
      expect(extra).toBeLessThanOrEqual(3);
      // The replicas kept trying: every other send was refused before any request.
      for (const report of reports) {
        expect((report.codes.SEND_LIMITED ?? 0) + (report.codes.LIMITS_UNAVAILABLE ?? 0)).toBeGreaterThan(5);
      }
    },
    90_000,
  );

  it("'refuse', Redis stalled: nothing sent, every send refused with LIMITS_UNAVAILABLE", async () => {
    const { extra, reports } = await run('stall', 'refuse');
    expect(extra).toBe(0);
    for (const report of reports) {
      expect(Object.keys(report.codes)).toEqual(['LIMITS_UNAVAILABLE']);
      expect(report.stats.limits?.refusedUnavailable).toBe(report.codes.LIMITS_UNAVAILABLE);
    }
  }, 90_000);
});
