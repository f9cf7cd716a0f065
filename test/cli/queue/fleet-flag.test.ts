import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { hashes } from '../../fleet/fleet-helpers.js';
import { startLookupService } from '../../fleet/lookup-service.js';
import { describeWithRedis } from '../../helpers/redis.js';
import { startRedisServer } from '../../helpers/redis-server.js';
import { collect, timeless } from '../run-cli.js';
import { cli } from './queue-cli.js';

/** A TCP relay to `port` that holds every reply of Redis back for `delayMs` (in order): a Redis across a network. */
async function slowRelay(port: number, delayMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      setTimeout(() => client.writable && client.write(chunk), delayMs);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => setTimeout(() => client.destroy(), delayMs));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `redis://127.0.0.1:${address.port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

describeWithRedis('--redis-timeout: the longest wait for one Redis call of the shared cache', () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it('a Redis answering in 200 ms: every call misses at the default 50 ms, every call hits with --redis-timeout 5s', async () => {
    const redis = await startRedisServer();
    closers.push(() => redis.stop());
    const list = hashes(20, 'redis-timeout');
    const service = await startLookupService(1, undefined, (hash) => hash === list[3]);
    closers.push(() => service.close());
    const first = await collect(cli(['lookup', '--redis', redis.url, '-f', 'ndjson', ...list], service.url));
    expect(first.code).toBe(1);
    expect(service.arrivals).toHaveLength(20);

    const relay = await slowRelay(Number(new URL(redis.url).port), 200);
    closers.push(() => relay.close());
    const patient = await collect(
      cli(['lookup', '--redis', relay.url, '--redis-timeout', '5s', '-f', 'ndjson', ...list], service.url),
    );
    expect(patient.code).toBe(1);
    expect(timeless(patient.stdout)).toBe(timeless(first.stdout));
    // Every verdict came from the shared cache, through the slow Redis.
    expect(service.arrivals).toHaveLength(20);

    const hasty = await collect(cli(['lookup', '--redis', relay.url, '-f', 'ndjson', ...list], service.url));
    expect(hasty.code).toBe(1);
    expect(timeless(hasty.stdout)).toBe(timeless(first.stdout));
    // The same Redis, the default wait: the calls count as misses and the service is asked.
    expect(service.arrivals.length).toBeGreaterThan(20);
  }, 60_000);

  it('is a usage error without --redis, out of its range, and on a --queue producer', async () => {
    const hash = hashes(1, 'redis-timeout-usage')[0] as string;
    for (const [args, message] of [
      [['lookup', '--redis-timeout', '1s', hash], '--redis-timeout applies to --redis URL'],
      [['scan', '--redis-timeout', '1s', '.'], '--redis-timeout applies to --redis URL'],
      [
        ['lookup', '--redis', 'redis://127.0.0.1:1', '--redis-timeout', '0ms', hash],
        '--redis-timeout must be a duration from 1ms to 10s',
      ],
      [['lookup', '--redis', 'redis://127.0.0.1:1', '--redis-timeout', '11s', hash], 'got "11s"'],
      [['lookup', '--queue', 'redis://127.0.0.1:1', '--redis-timeout', '1s', hash], 'give --redis-timeout to `worker`'],
    ] as const) {
      const run = await collect(cli(args, 'http://127.0.0.1:1'));
      expect(run.code, args.join(' ')).toBe(64);
      expect(run.stderr).toContain(message);
    }
  });
});
