import { loadOptional } from '../optional-package.js';

/*
 * bullmq and ioredis are optional peer dependencies: only `--queue`,
 * `worker` and `--redis` need them. They are loaded here, when one of those flags runs.
 */

type IoRedisModule = { readonly Redis: typeof import('ioredis').Redis };
type BullMqModule = Pick<typeof import('bullmq'), 'Queue' | 'Worker'>;

export function loadIoRedis(flag: string): Promise<IoRedisModule> {
  return loadOptional('ioredis', () => import('ioredis'), flag);
}

export function loadBullMq(flag: string): Promise<BullMqModule> {
  return loadOptional('bullmq', () => import('bullmq'), flag);
}
