/**
 * The fleet's Redis as the shared cache store: the entries written in one
 * turn of the event loop go out as one script, and each write is told how
 * that script ended.
 */
import { describe, expect, it } from 'vitest';
import { redisSharedStore } from '../../src/fleet/redis-store.js';
import { NO_OBSERVERS } from '../../src/observe/observers.js';
import { RedisLink } from '../../src/redis/redis-link.js';
import { fakeRedis } from './fake-redis.js';

/** A node-redis-like client recording every command; `reply` answers each. */
const recordingRedis = (reply: (args: string[]) => Promise<unknown>) => fakeRedis((args) => reply(args));

const link = (client: ReturnType<typeof recordingRedis>['client']) =>
  new RedisLink(client, { timeoutMs: 1_000, observers: NO_OBSERVERS, name: 'hashscan' });

describe('redisSharedStore', () => {
  it('writes the entries of one turn with one script: keys, then each value and time to live', async () => {
    const redis = recordingRedis(async () => 3);
    const store = redisSharedStore(link(redis.client), 'p');
    await expect(
      Promise.all([store.set('a', 'A', 60_000), store.set('b', 'B', 1.2), store.set('c', 'C')]),
    ).resolves.toEqual([3, 3, 3]);
    expect(redis.commands).toHaveLength(1);
    const [command, , count, ...rest] = redis.commands[0] as string[];
    expect([command, count, rest]).toEqual([
      'EVAL',
      '3',
      ['p:cache:a', 'p:cache:b', 'p:cache:c', 'A', '60000', 'B', '2', 'C', '0'],
    ]);
    // The next turn's writes are a script of their own.
    await store.set('d', 'D', 1_000);
    expect(redis.commands).toHaveLength(2);
  });

  it('a script that fails fails each write of its batch', async () => {
    const redis = recordingRedis(async () => {
      throw Object.assign(new Error('OOM command not allowed'), { code: 'OOM' });
    });
    const store = redisSharedStore(link(redis.client), 'p');
    const writes = [store.set('a', 'A', 1_000), store.set('b', 'B', 1_000)];
    for (const write of writes) await expect(write).rejects.toThrow('OOM');
    expect(redis.commands).toHaveLength(1);
  });
});
