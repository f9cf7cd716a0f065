import { createRequire } from 'node:module';
import { loadOptional } from '../optional-package.js';

/*
 * bullmq and ioredis are optional peer dependencies: only `--queue`,
 * `worker` and `--redis` need them. They are loaded here, when one of those flags runs,
 * through their CommonJS entries: `import()` of bullmq loads its many ES module files and
 * of ioredis parses its CommonJS source for named exports, which doubled a worker's start-up
 * (see BENCHMARKS.md, "Queue CPU per lookup"). ioredis has no ES module build, and bullmq's
 * CommonJS build requires that same ioredis, so every connection is of one class either way.
 */

type IoRedisModule = { readonly Redis: typeof import('ioredis').Redis };
type BullMqModule = Pick<typeof import('bullmq'), 'Queue' | 'Worker'>;

const require = createRequire(import.meta.url);

export function loadIoRedis(flag: string): Promise<IoRedisModule> {
  return loadOptional('ioredis', async () => require('ioredis') as IoRedisModule, flag);
}

export function loadBullMq(flag: string): Promise<BullMqModule> {
  return loadOptional('bullmq', async () => require('bullmq') as BullMqModule, flag);
}
