/**
 * `lookup -0 --queue`: NUL-separated lines (`sha256sum -z`) through the real
 * binary, a real Redis and a worker, printed as a local `lookup -0` prints them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { hashes } from '../../fleet/fleet-helpers.js';
import { startLookupService } from '../../fleet/lookup-service.js';
import { describeWithRedis } from '../../helpers/redis.js';
import { startRedisServer } from '../../helpers/redis-server.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { collect, timeless } from '../run-cli.js';
import { cli, ndjsonRows } from './queue-cli.js';

const dir = useTempDir();

describeWithRedis('lookup -0 --queue: NUL-separated input for the producer', () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('names holding a newline or a CR are one line each, as a local -0 run reads them, from a file or stdin', async () => {
    const redis = await startRedisServer();
    closers.push(() => redis.stop());
    const [clean, flagged, third] = hashes(3, 'nul-queue') as [string, string, string];
    const service = await startLookupService(1, undefined, (hash) => hash === flagged);
    closers.push(() => service.close());
    const worker = cli(['worker', '--queue', redis.url, '-q'], service.url);
    closers.push(async () => {
      worker.kill('SIGTERM');
      await collect(worker);
    });
    // `sha256sum -z` output: a name may hold a newline or a CR, each record ends with NUL.
    const input = join(dir, 'sums.nul');
    const list = `${clean}  first\nname\0${flagged}  with\rcr\0${third}\0`;
    writeFileSync(input, list);

    const queued = await collect(
      cli(['lookup', '--queue', redis.url, '-0', '--input', input, '-f', 'ndjson'], service.url),
    );
    expect(queued.code).toBe(1);
    const rows = ndjsonRows(queued.stdout);
    expect(rows.map((row) => [row.line, row.hash, row.name, row.decision])).toEqual([
      [1, clean, 'first\nname', 'allow'],
      [2, flagged, 'with\rcr', 'block'],
      [3, third, undefined, 'allow'],
    ]);
    const local = await collect(cli(['lookup', '-0', '--input', input, '-f', 'ndjson'], service.url));
    expect(timeless(queued.stdout)).toBe(timeless(local.stdout));

    // From stdin: another run (another input copy, the same lines), the same rows.
    const piped = cli(['lookup', '--queue', redis.url, '-0', '-f', 'ndjson', '--run-id', 'nul-stdin'], service.url);
    const fromStdin = await collect(piped, list);
    expect(fromStdin.code).toBe(1);
    expect(timeless(fromStdin.stdout)).toBe(timeless(queued.stdout));
  }, 30_000);
});
