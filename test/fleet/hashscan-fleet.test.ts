import { afterAll, expect, it } from 'vitest';
import { describeWithRedis } from '../helpers/redis.js';
import { startRedisServer } from '../helpers/redis-server.js';
import { freshPrefix, hashes, runReplica } from './fleet-helpers.js';
import { isHit, startLookupService } from './lookup-service.js';

/** Replica processes need a moment to start (Redis connection) before they begin together. */
const START_DELAY_MS = 2_500;

describeWithRedis('HashScanClient fleet: replicas as separate processes on a real Redis', (redisUrl) => {
  const services: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    await Promise.all(services.map((service) => service.close()));
  });

  it('the same 200 new hashes asked by two replicas at once reach the service about 200 times, same verdicts', async () => {
    const service = await startLookupService(30);
    services.push(service);
    const list = hashes(200, 'single-flight');
    const startAt = Date.now() + START_DELAY_MS;
    const common = { redisUrl, prefix: freshPrefix(), baseUrl: service.url, startAt };
    const [a, b] = await Promise.all([
      runReplica({ ...common, lib: 'node-redis', scan: { hashes: list, concurrency: 16 } }).done,
      runReplica({ ...common, lib: 'ioredis', scan: { hashes: list, concurrency: 16 } }).done,
    ]);
    const expected = list.map((hash) => ({ hash, verdict: isHit(hash) ? 'malicious' : 'not_detected' }));
    expect(a.results).toEqual(expected);
    expect(b.results).toEqual(expected);
    // Without the fleet: 400. A wait that gives up (a slow machine) may add a few.
    expect(service.arrivals.length).toBeGreaterThanOrEqual(200);
    expect(service.arrivals.length).toBeLessThanOrEqual(220);
    // Each hash asked once: the other replica joined the request in flight, or, when it came late
    // (a loaded machine starts one replica later), read the answer the first one had shared.
    const fromTheOther = (stats: typeof a.stats): number =>
      (stats.fleet?.lookupsJoined ?? 0) + (stats.cache?.sharedHits ?? 0);
    expect(fromTheOther(a.stats) + fromTheOther(b.stats)).toBeGreaterThan(150);
  }, 60_000);

  it('a 429 with Retry-After: 2 seen by one replica pauses both', async () => {
    let pausedAt = 0;
    const service = await startLookupService(20, (_hash, count, response) => {
      if (count !== 10) return false;
      pausedAt = Date.now();
      response.writeHead(429, { 'retry-after': '2', 'content-type': 'application/json' });
      response.end('{"status":"error","message":"slow down"}');
      return true;
    });
    services.push(service);
    const startAt = Date.now() + START_DELAY_MS;
    const common = { redisUrl, prefix: freshPrefix(), baseUrl: service.url, startAt };
    const [a, b] = await Promise.all([
      runReplica({ ...common, lib: 'node-redis', scan: { hashes: hashes(60, 'pause-a'), concurrency: 1 } }).done,
      runReplica({ ...common, lib: 'ioredis', scan: { hashes: hashes(60, 'pause-b'), concurrency: 1 } }).done,
    ]);
    expect(pausedAt).toBeGreaterThan(0);
    // Requests already on their way when the 429 came, and one view of the pause not yet refreshed, may land just after it
    // (a view is read again every 20 ms in the background, later when a loaded machine delays the replica). Without a shared
    // pause the other replica would send some 70 requests in the rest of the window.
    const duringPause = service.arrivals.filter(({ at }) => at > pausedAt + 500 && at < pausedAt + 1_900);
    expect(duringPause).toEqual([]);
    expect(service.arrivals.filter(({ at }) => at >= pausedAt + 1_900).length).toBeGreaterThan(20);
    // The lookup that got the 429 reports it (its Retry-After is longer than the retry's back-off); every other one is answered.
    const failed = [...a.results, ...b.results].filter((result) => result.verdict === undefined);
    expect(failed.map((result) => result.error)).toEqual(['HTTP_STATUS']);
    // The replica that did not get the 429 was held by the fleet's pause.
    expect((a.stats.fleet?.held ?? 0) + (b.stats.fleet?.held ?? 0)).toBeGreaterThan(0);
  }, 60_000);

  it('a fleet-wide 50 requests/s holds to about 50/s in total, not 100', async () => {
    const service = await startLookupService(5);
    services.push(service);
    const startAt = Date.now() + START_DELAY_MS;
    const common = { redisUrl, prefix: freshPrefix(), baseUrl: service.url, startAt };
    await Promise.all([
      runReplica({
        ...common,
        lib: 'node-redis',
        scan: { hashes: hashes(150, 'quota-a'), concurrency: 8, requestsPerSecond: 50 },
      }).done,
      runReplica({
        ...common,
        lib: 'ioredis',
        scan: { hashes: hashes(150, 'quota-b'), concurrency: 8, requestsPerSecond: 50 },
      }).done,
    ]);
    const times = service.arrivals.map(({ at }) => at).sort((x, y) => x - y);
    expect(times).toHaveLength(300);
    const first = times[0] ?? 0;
    // Counted in one-second windows: 300 requests need 5 full windows after the first one opens, and on a
    // loaded machine the first arrivals may come late into that first window. Without the shared quota the
    // two replicas' 100/s would span 3 s.
    const seconds = ((times.at(-1) ?? 0) - first) / 1_000;
    expect(seconds).toBeGreaterThan(4);
    expect(299 / seconds).toBeLessThan(75);
    // No second of the run saw much more than the fleet's 50.
    for (let start = first; start < (times.at(-1) ?? 0); start += 250) {
      const inWindow = times.filter((at) => at >= start && at < start + 1_000).length;
      expect(inWindow).toBeLessThanOrEqual(100);
    }
  }, 60_000);

  it('Redis killed mid-run: both replicas keep answering, and say so once', async () => {
    const redis = await startRedisServer();
    const service = await startLookupService(20);
    services.push(service);
    const startAt = Date.now() + START_DELAY_MS;
    const common = { redisUrl: redis.url, prefix: freshPrefix(), baseUrl: service.url, startAt };
    const list = hashes(600, 'outage');
    const replicas = [
      runReplica({ ...common, lib: 'node-redis', scan: { hashes: list, concurrency: 8 } }),
      runReplica({ ...common, lib: 'ioredis', scan: { hashes: list, concurrency: 8 } }),
    ];
    const runs = replicas.map((replica) => replica.done);
    // Killed once both replicas are connected and lookups flow (a loaded machine starts them late).
    await Promise.all(replicas.map((replica) => replica.connected));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now() + 400)));
    await expect.poll(() => service.arrivals.length, { timeout: 20_000, interval: 10 }).toBeGreaterThan(0);
    const arrivalsBefore = service.arrivals.length;
    await redis.stop();
    const reports = await Promise.all(runs);
    expect(arrivalsBefore).toBeGreaterThan(0);
    expect(arrivalsBefore).toBeLessThan(600);
    const expected = list.map((hash) => ({ hash, verdict: isHit(hash) ? 'malicious' : 'not_detected' }));
    for (const report of reports) {
      expect(report.results).toEqual(expected);
      expect(report.log.filter((line) => line.includes("the fleet's Redis failed"))).toHaveLength(1);
    }
  }, 60_000);
});
