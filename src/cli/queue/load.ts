import { UsageError } from '../usage-error.js';

/*
 * bullmq and ioredis are optional peer dependencies: only `--queue`,
 * `worker` and `--redis` need them, and the core package adds no required
 * dependency. They are loaded here, when one of those flags runs.
 */

type IoRedisModule = { readonly Redis: typeof import('ioredis').Redis };
type BullMqModule = Pick<typeof import('bullmq'), 'Queue' | 'Worker'>;

async function optional<T>(name: string, load: () => Promise<T>, flag: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND') {
      throw new UsageError(`${flag} needs the optional package ${name}: npm install ${name}`);
    }
    throw error;
  }
}

export function loadIoRedis(flag: string): Promise<IoRedisModule> {
  return optional('ioredis', () => import('ioredis'), flag);
}

export function loadBullMq(flag: string): Promise<BullMqModule> {
  return optional('bullmq', () => import('bullmq'), flag);
}
