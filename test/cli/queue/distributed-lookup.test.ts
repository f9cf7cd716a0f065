import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { hashes } from '../../fleet/fleet-helpers.js';
import { startLookupService } from '../../fleet/lookup-service.js';
import { describeWithRedis } from '../../helpers/redis.js';
import { type RedisServer, startRedisServer } from '../../helpers/redis-server.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { collect, timeless } from '../run-cli.js';
import { cli, ndjsonRows } from './queue-cli.js';

const dir = useTempDir();

/** The result rows of an output, each as text (JSON re-serialized), without the header. */
function rowsOf(stdout: string, format: string): string[] {
  if (format === 'json') return (JSON.parse(stdout) as unknown[]).map((row) => JSON.stringify(row));
  const lines = stdout.split(/\r?\n/).filter((line) => line !== '');
  return format === 'ndjson' ? lines : lines.slice(1);
}

/** Orders rows by their line number (the first number in the row). */
const byLine = (a: string, b: string): number => Number(/\d+/.exec(a)?.[0]) - Number(/\d+/.exec(b)?.[0]);

// The queue's Redis is one of this file's own: killing a worker must not leave state for other files.
describeWithRedis('lookup --queue and worker: batches across machines on BullMQ', () => {
  let redis: RedisServer;
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it('three workers over 6,000 lines, one killed -9 mid-run: every line once, in order, the hit, exit 1, each hash sent at most twice', async () => {
    redis = await startRedisServer();
    closers.push(() => redis.stop());
    const list = hashes(6_000, 'queue');
    const hit = list[4_321] as string;
    const service = await startLookupService(20, undefined, (hash) => hash === hit);
    closers.push(() => service.close());
    const input = join(dir, 'six-thousand.txt');
    writeFileSync(input, `# stored hashes\n${list.join('\n')}\n`);

    const workerArgs = ['worker', '--queue', redis.url, '--lock-ms', '2000', '--concurrency', '16', '-q'];
    const workers = [0, 1, 2].map(() => cli(workerArgs, service.url));
    const finished = workers.map((worker) => collect(worker));
    const producer = collect(
      cli(['lookup', '--queue', redis.url, '--input', input, '--chunk-size', '200', '-f', 'ndjson'], service.url),
    );
    // One worker dies without a word once a quarter of the lines have reached the service.
    while (service.arrivals.length < 1_500) await new Promise((resolve) => setTimeout(resolve, 20));
    workers[0]?.kill('SIGKILL');

    const run = await producer;
    expect(run.code).toBe(1);
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { line: number; hash: string; verdict: string; decision: string });
    expect(rows.map((row) => row.line)).toEqual(list.map((_, index) => index + 2));
    expect(rows.map((row) => row.hash)).toEqual(list);
    expect(rows.filter((row) => row.verdict !== 'not_detected')).toEqual([
      expect.objectContaining({ line: 4_323, hash: hit, verdict: 'malicious', decision: 'block' }),
    ]);
    const sent = new Map<string, number>();
    for (const { hash } of service.arrivals) sent.set(hash, (sent.get(hash) ?? 0) + 1);
    expect(sent.size).toBe(6_000);
    expect(Math.max(...sent.values())).toBeLessThanOrEqual(2);

    // A second producer with the same input resumes the run: same output, nothing asked again.
    const before = service.arrivals.length;
    const again = await collect(
      cli(['lookup', '--queue', redis.url, '--input', input, '--chunk-size', '200', '-f', 'ndjson'], service.url),
    );
    expect(again.code).toBe(1);
    expect(timeless(again.stdout)).toBe(timeless(run.stdout));
    expect(again.stderr).toContain('resuming 6000 lines in 30 chunks');
    expect(service.arrivals.length).toBe(before);

    // The same run id with another input is refused.
    writeFileSync(join(dir, 'other.txt'), `${list[0]}\n`);
    const runId = /run (\w+):/.exec(again.stderr)?.[1] ?? '';
    const other = await collect(
      cli(['lookup', '--queue', redis.url, '--input', join(dir, 'other.txt'), '--run-id', runId], service.url),
    );
    expect(other.code).toBe(64);
    expect(other.stderr).toContain('started with another input');

    // The surviving workers stop cleanly on SIGTERM.
    workers[1]?.kill('SIGTERM');
    workers[2]?.kill('SIGTERM');
    const ends = await Promise.all(finished);
    expect(ends.map((end) => end.signal ?? end.code)).toEqual(['SIGKILL', 0, 0]);
    // The chunk of the killed worker went to another, which said so (with -q too).
    expect(`${ends[1]?.stderr}${ends[2]?.stderr}`).toMatch(
      /^hashscan-sms: worker \d+: run \w+: chunk \d+ taken over from a worker that stopped \(\d+ of 200 lines recorded before\)$/m,
    );
  }, 90_000);

  it('--redis on lookup shares verdicts between runs, lookup threads included; a Redis that does not answer leaves the run on its own', async () => {
    const own = await startRedisServer();
    closers.push(() => own.stop());
    const list = hashes(50, 'redis-flag');
    const service = await startLookupService(1, undefined, (hash) => hash === list[7]);
    closers.push(() => service.close());
    // A loaded machine can keep Redis from answering within the default 50 ms: every call then misses.
    const args = ['lookup', '--redis', own.url, '--redis-timeout', '5s', '-f', 'ndjson', ...list];
    // Lookup threads (--workers) share through Redis as one thread does: each has its own connection.
    const first = await collect(cli([...args, '--workers', '2'], service.url));
    expect(first.code).toBe(1);
    expect(service.arrivals).toHaveLength(50);
    const second = await collect(cli(args, service.url));
    expect(second.code).toBe(1);
    expect(timeless(second.stdout)).toBe(timeless(first.stdout));
    expect(service.arrivals).toHaveLength(50);
    const third = await collect(cli([...args, '--workers', '3'], service.url));
    expect(timeless(third.stdout)).toBe(timeless(first.stdout));
    expect(service.arrivals).toHaveLength(50);

    await own.stop();
    const alone = await collect(cli(args, service.url));
    expect(alone.code).toBe(1);
    expect(timeless(alone.stdout)).toBe(timeless(first.stdout));
    expect(alone.stderr).toContain('running without the shared cache and fleet');
    expect(service.arrivals).toHaveLength(100);
  }, 30_000);

  it('prints what a local run prints, in every format, with input on stdin', async () => {
    const own = await startRedisServer();
    closers.push(() => own.stop());
    const list = hashes(40, 'formats');
    const service = await startLookupService(1, undefined, (hash) => hash === list[3]);
    closers.push(() => service.close());
    // The last name is not UTF-8: both runs print its `\xNN` text and its exact bytes.
    const input = Buffer.concat([
      Buffer.from(
        `${list.slice(0, 20).join('\n')}\nnot-a-hash\n\n# comment\n${list.slice(20).join('  file name.bin\n')}  last`,
      ),
      Buffer.from([0xfe, 0x2e, 0x62, 0x69, 0x6e, 0x0a]),
    ]);
    const worker = cli(['worker', '--queue', own.url, '-q'], service.url);
    const stopped = collect(worker);
    for (const format of ['ndjson', 'csv', 'json', 'table']) {
      const local = await collect(cli(['lookup', '-f', format, '-q'], service.url), input);
      const queued = await collect(
        cli(['lookup', '--queue', own.url, '-f', format, '-q', '--chunk-size', '7'], service.url),
        input,
      );
      expect(queued.code).toBe(local.code);
      // Both print in input order: the same bytes.
      expect(timeless(queued.stdout)).toBe(timeless(local.stdout));
      expect(rowsOf(queued.stdout, format)).toEqual(rowsOf(queued.stdout, format).sort(byLine));
      if (format === 'ndjson') {
        expect(JSON.parse(rowsOf(queued.stdout, format).at(-1) as string)).toMatchObject({
          name: 'last\\xfe.bin',
          nameBase64: Buffer.from('last\xfe.bin', 'latin1').toString('base64'),
        });
      }
    }
    worker.kill('SIGTERM');
    expect((await stopped).code).toBe(0);
  }, 60_000);

  it('a result written to Redis by anyone but a worker of the run is never a verdict: it is asked again', async () => {
    const own = await startRedisServer();
    closers.push(() => own.stop());
    const list = hashes(3, 'forged');
    const service = await startLookupService(1, undefined, () => true);
    closers.push(() => service.close());
    const { Redis } = await import('ioredis');
    const redisClient = new Redis(own.url);
    closers.push(async () => redisClient.disconnect());
    // "Results" planted before the producer starts, each a clean verdict for its own hash the service flags.
    for (const [index, hash] of list.entries()) {
      const clean = JSON.stringify({ verdict: 'not_detected', hash, at: Date.now() });
      await redisClient.hset(
        'hashscan-sms:queue:run:forged:chunk:0',
        String(index + 1),
        `q2.${'A'.repeat(11)}.${'A'.repeat(43)}.${clean}`,
      );
    }
    const worker = cli(['worker', '--queue', own.url, '-q'], service.url);
    const stopped = collect(worker);
    const run = await collect(
      cli(['lookup', '--queue', own.url, '--run-id', 'forged', '-f', 'ndjson', ...list], service.url),
    );
    expect(run.code).toBe(1);
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows).toEqual(
      list.map((hash, index) => expect.objectContaining({ line: index + 1, hash, verdict: 'malicious' })),
    );
    expect(run.stderr).toContain('records of chunk 0 asked again (QUEUE_KEY_MISMATCH');
    worker.kill('SIGTERM');
    await stopped;
  }, 30_000);
  it('an input shortened while the producer reads it again: exit 2, never 0, and it says which lines were printed', async () => {
    const own = await startRedisServer();
    closers.push(() => own.stop());
    const list = hashes(4_000, 'shortened');
    const service = await startLookupService(1);
    closers.push(() => service.close());
    const input = join(dir, 'shortened.txt');
    const text = `${list.join('\n')}\n`;
    writeFileSync(input, text);
    const producer = cli(
      ['lookup', '--queue', own.url, '--input', input, '--chunk-size', '100', '-f', 'ndjson'],
      service.url,
    );
    const run = collect(producer);
    // No worker yet: the producer has counted and queued every line, and waits for the first chunk.
    await new Promise<void>((resolve) => {
      const queued = (chunk: Buffer): void => {
        if (!String(chunk).includes('queued 4000 lines')) return;
        producer.stderr?.off('data', queued);
        resolve();
      };
      producer.stderr?.on('data', queued);
    });
    // Rewritten in place to its first 1,500 lines (whole chunks), as a file edited during the run.
    truncateSync(input, text.split('\n').slice(0, 1_500).join('\n').length + 1);
    const worker = cli(['worker', '--queue', own.url, '-q'], service.url);
    const stopped = collect(worker);
    const ended = await run;
    expect(ended.code).toBe(2);
    const said = /: (\d+) of 4000 lines printed: the input changed while it was read; run again/.exec(ended.stderr);
    expect(said).not.toBeNull();
    // What it says it printed is what it printed: the lines of the shortened input, each once, in order.
    const rows = ndjsonRows(ended.stdout);
    expect(rows).toHaveLength(Number(said?.[1]));
    expect(rows.length).toBeLessThanOrEqual(1_500);
    expect(rows.map((row) => row.hash)).toEqual(list.slice(0, rows.length));
    worker.kill('SIGTERM');
    await stopped;
  }, 60_000);
});
