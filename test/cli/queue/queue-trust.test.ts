import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { hashes } from '../../fleet/fleet-helpers.js';
import { startLookupService } from '../../fleet/lookup-service.js';
import { describeWithRedis } from '../../helpers/redis.js';
import { type RedisServer, startRedisServer } from '../../helpers/redis-server.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { collect, timeless } from '../run-cli.js';
import { cli, ndjsonRows } from './queue-cli.js';

const dir = useTempDir();
const sleep = (ms: number): Promise<void> => new Promise((wake) => setTimeout(wake, ms));

/** Resolves once `child` has printed `rows` lines on stdout (the test then strikes mid-run). */
function printed(child: ChildProcess, rows: number): Promise<void> {
  let seen = 0;
  return new Promise((resolve) => {
    const count = (chunk: string | Buffer): void => {
      seen += String(chunk).split('\n').length - 1;
      if (seen < rows) return;
      child.stdout?.off('data', count);
      resolve();
    };
    child.stdout?.on('data', count);
  });
}

/** Whatever the attacker saved of the keys matching `pattern`: each key's type and value. */
async function saveKeys(redis: Redis, pattern: string): Promise<Array<[string, string | Record<string, string>]>> {
  const saved: Array<[string, string | Record<string, string>]> = [];
  for (const key of await redis.keys(pattern)) {
    saved.push([key, (await redis.type(key)) === 'hash' ? await redis.hgetall(key) : ((await redis.get(key)) ?? '')]);
  }
  return saved;
}

async function writeBack(redis: Redis, saved: Array<[string, string | Record<string, string>]>): Promise<void> {
  for (const [key, value] of saved) {
    if (typeof value === 'string') await redis.set(key, value);
    else await redis.hset(key, value);
  }
}

/** The rows' verdicts and error codes, by line. */
const verdicts = (stdout: string): string[] =>
  ndjsonRows(stdout).map((row) => `${row.line} ${row.verdict}${row.error === undefined ? '' : ` ${row.error}`}`);

// Each test has a Redis of its own: kills, restarts and planted keys stay in it.
describeWithRedis('lookup --queue against a hostile or restarted Redis', () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });
  const ownRedis = async (): Promise<{ server: RedisServer; client: Redis }> => {
    const server = await startRedisServer();
    const client = new Redis(server.url, { maxRetriesPerRequest: 1 });
    client.on('error', () => {});
    closers.push(() => server.stop());
    closers.push(async () => client.disconnect());
    return { server, client };
  };

  it('records replayed after the keys expired are asked again: the hash the service now flags is printed malicious, never the old clean', async () => {
    const { server, client } = await ownRedis();
    const list = hashes(12, 'replay');
    const flagged = new Set<string>();
    const service = await startLookupService(1, undefined, (hash) => flagged.has(hash));
    closers.push(() => service.close());
    const args = ['lookup', '--queue', server.url, '--run-id', 'replay', '-f', 'ndjson', '--chunk-size', '5', ...list];
    // Each phase has a fresh worker: its in-process cache is not what is tested.
    const withWorker = async <T>(body: () => Promise<T>): Promise<T> => {
      const worker = cli(['worker', '--queue', server.url, '-q'], service.url);
      const stopped = collect(worker);
      try {
        return await body();
      } finally {
        worker.kill('SIGTERM');
        await stopped;
      }
    };

    const first = await withWorker(() => collect(cli(args, service.url)));
    expect(first.code).toBe(0);
    const saved = await saveKeys(client, 'hashscan-sms:queue:run:replay:*');
    expect(saved.length).toBe(4); // the run's record and three chunks

    // The keys expire (the jobs too); the service now flags one hash; the attacker writes the chunks back.
    flagged.add(list[7] as string);
    await client.flushall();
    await writeBack(
      client,
      saved.filter(([key]) => key.includes(':chunk:')),
    );
    const second = await withWorker(() => collect(cli(args, service.url)));
    expect(verdicts(second.stdout)).toEqual(list.map((_, i) => `${i + 1} ${i === 7 ? 'malicious' : 'not_detected'}`));
    expect(second.code).toBe(1);

    // The run's own record written back too (the same run, resumed): the records are older than --max-age.
    await client.flushall();
    await writeBack(client, saved);
    await sleep(2_500);
    const third = await withWorker(() => collect(cli([...args, '--max-age', '2000'], service.url)));
    expect(verdicts(third.stdout)).toEqual(list.map((_, i) => `${i + 1} ${i === 7 ? 'malicious' : 'not_detected'}`));
    expect(third.code).toBe(1);
    expect(third.stderr).toContain('asked again (QUEUE_STALE_RECORD');
  }, 90_000);

  it("a job injected under a run's job id does not block the run: the producer enqueues its own", async () => {
    const { server } = await ownRedis();
    const list = hashes(6, 'injected');
    const service = await startLookupService(1, undefined, (hash) => hash === list[2]);
    closers.push(() => service.close());
    // Planted before the producer starts, under the id its first chunk job would take.
    const attacker = new Queue('lookup', {
      connection: { host: '127.0.0.1', port: server.port },
      prefix: 'hashscan-sms:queue',
    });
    await attacker.add('chunk', { not: 'a chunk' }, { jobId: 'injected-0', attempts: 1 });
    await attacker.close();
    const worker = cli(['worker', '--queue', server.url, '-q'], service.url);
    const stopped = collect(worker);
    const args = ['lookup', '--queue', server.url, '--run-id', 'injected', '-f', 'ndjson', ...list];
    const run = await collect(cli(args, service.url));
    expect(verdicts(run.stdout)).toEqual(list.map((_, i) => `${i + 1} ${i === 2 ? 'malicious' : 'not_detected'}`));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("is not this run's: enqueued again");
    worker.kill('SIGTERM');
    await stopped;
  }, 90_000);

  it('results lost after their job completed are asked again, with fields planted to keep the count', async () => {
    const { server, client } = await ownRedis();
    const list = hashes(8, 'lost');
    const service = await startLookupService(1, undefined, () => false);
    closers.push(() => service.close());
    const worker = cli(['worker', '--queue', server.url, '-q'], service.url);
    const stopped = collect(worker);
    const args = ['lookup', '--queue', server.url, '--run-id', 'lost', '-f', 'ndjson', ...list];
    const first = await collect(cli(args, service.url));
    expect(first.code).toBe(0);
    // Two records gone (a partial restore, someone's HDEL); two fields of no line keep HLEN where it was.
    const results = 'hashscan-sms:queue:run:lost:chunk:0';
    await client.hdel(results, '3', '5');
    await client.hset(results, '100', 'x', '101', 'y');
    const producer = cli(args, service.url);
    const deadline = setTimeout(() => producer.kill('SIGKILL'), 60_000);
    const again = await collect(producer);
    clearTimeout(deadline);
    expect(timeless(again.stdout)).toBe(timeless(first.stdout));
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('results of chunk 0 were lost from Redis: asked again');
    worker.kill('SIGTERM');
    await stopped;
  }, 90_000);

  it('a worker with another key says so, and the producer names the cause in its message and rows', async () => {
    const { server } = await ownRedis();
    const list = hashes(3, 'other-key');
    const service = await startLookupService(1, undefined, () => false);
    closers.push(() => service.close());
    const worker = cli(['worker', '--queue', server.url], service.url, {
      HASHSCAN_QUEUE_SECRET: 'not the producer secret',
    });
    const stopped = collect(worker);
    const run = await collect(
      cli(['lookup', '--queue', server.url, '--run-id', 'other-key', '-f', 'ndjson', ...list], service.url),
    );
    expect(run.code).toBe(2);
    expect(verdicts(run.stdout)).toEqual(list.map((_, i) => `${i + 1} error QUEUE_KEY_MISMATCH`));
    expect(run.stderr).toContain(
      "a worker refused chunk 0: its HASHSCAN_QUEUE_SECRET (else its API key) is not this producer's",
    );
    worker.kill('SIGTERM');
    const log = await stopped;
    expect(log.stderr).toContain('run other-key was queued with another key');
    expect(log.stderr).not.toContain('not the producer secret');
    expect(service.arrivals).toHaveLength(0);
  }, 90_000);

  it('Redis killed and restarted empty 500 lines into a 3,000-line run: the lost chunks are enqueued again, every line printed once, in order', async () => {
    const { server } = await ownRedis();
    const list = hashes(3_000, 'restart');
    const hit = list[2_500] as string;
    const service = await startLookupService(40, undefined, (hash) => hash === hit);
    closers.push(() => service.close());
    const input = join(dir, 'restart.txt');
    writeFileSync(input, `${list.join('\n')}\n`);
    const workers = [0, 1].map(() =>
      cli(['worker', '--queue', server.url, '--concurrency', '8', '--lock-ms', '2000', '-q'], service.url),
    );
    const stopped = workers.map((worker) => collect(worker));
    const producer = cli(
      ['lookup', '--queue', server.url, '--input', input, '--chunk-size', '100', '-f', 'ndjson'],
      service.url,
    );
    const ran = collect(producer);
    await printed(producer, 500);
    expect(service.arrivals.length).toBeLessThan(3_000);
    await server.kill('SIGKILL');
    const again = await startRedisServer(server.port);
    closers.push(() => again.stop());
    // Never a silent wait: the run ends, or this test kills it.
    const deadline = setTimeout(() => producer.kill('SIGKILL'), 75_000);
    const run = await ran;
    clearTimeout(deadline);
    const rows = ndjsonRows(run.stdout);
    expect(rows.map((row) => row.line)).toEqual(list.map((_, i) => i + 1));
    expect(rows.filter((row) => row.verdict !== 'not_detected')).toEqual([
      expect.objectContaining({ line: 2_501, hash: hit, verdict: 'malicious' }),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('enqueued again');
    for (const worker of workers) worker.kill('SIGTERM');
    // Each worker said, as the producer does, that Redis went away and came back (with -q too).
    for (const { stderr } of await Promise.all(stopped)) {
      expect(stderr).toMatch(/^hashscan-sms: worker \d+: Redis does not answer \([\w ]+\); waiting for it$/m);
      expect(stderr).toMatch(/^hashscan-sms: worker \d+: Redis answers again$/m);
    }
  }, 120_000);

  it('Redis killed for good: the producer says so at once and stops with exit 2 instead of waiting', async () => {
    const { server } = await ownRedis();
    const list = hashes(2_000, 'gone');
    const service = await startLookupService(40, undefined, () => false);
    closers.push(() => service.close());
    const input = join(dir, 'gone.txt');
    writeFileSync(input, `${list.join('\n')}\n`);
    const worker = cli(['worker', '--queue', server.url, '--concurrency', '8', '-q'], service.url);
    const stopped = collect(worker);
    const producer = cli(
      ['lookup', '--queue', server.url, '--input', input, '--chunk-size', '100', '--redis-wait', '4s', '-f', 'ndjson'],
      service.url,
    );
    const ran = collect(producer);
    await printed(producer, 300);
    await server.kill('SIGKILL');
    const deadline = setTimeout(() => producer.kill('SIGKILL'), 75_000);
    const run = await ran;
    clearTimeout(deadline);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Redis does not answer \(\w+\); waiting up to 4 s/);
    expect(run.stderr).toMatch(
      /stopped, Redis does not answer \(\w+\) for 4 s: \d+ of 2000 lines printed; the same command resumes the run/,
    );
    const rows = ndjsonRows(run.stdout);
    expect(rows.map((row) => row.line)).toEqual(list.slice(0, rows.length).map((_, i) => i + 1));
    worker.kill('SIGKILL');
    expect((await stopped).stderr).toMatch(
      /^hashscan-sms: worker \d+: Redis does not answer \([\w ]+\); waiting for it$/m,
    );
  }, 120_000);
});
