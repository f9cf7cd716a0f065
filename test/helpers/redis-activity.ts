import { Redis } from 'ioredis';

/** What a Redis holds and has run since it started: keys, and the GET and SET commands it executed. */
export interface RedisActivity {
  readonly keys: number;
  readonly gets: number;
  readonly sets: number;
}

/** Reads {@link RedisActivity} on a connection of its own (its own commands are not GET or SET). */
export async function redisActivity(url: string): Promise<RedisActivity> {
  const probe = new Redis(url, { maxRetriesPerRequest: 1 });
  probe.on('error', () => {});
  try {
    const stats = await probe.info('commandstats');
    const calls = (command: string): number =>
      Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0);
    return { keys: await probe.dbsize(), gets: calls('get'), sets: calls('set') };
  } finally {
    probe.disconnect();
  }
}
