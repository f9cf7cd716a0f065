/**
 * One SMS replica of the limits tests and bench, as its own process:
 * `node --import tsx test/limits/limits-replica.ts` (the tests run it bundled:
 * `test/build-replicas.ts`) with its settings in
 * the `REPLICA` environment variable (JSON). It connects its own Redis client
 * (ioredis or node-redis, offline queue off), says `ready` on stderr, and
 * once sent SIGUSR2 sends to one phone number (or to `phoneNumbers` in turn, as `caller` when given) every
 * `intervalMs` for `durationMs`, and prints one JSON line: how
 * many sends were delivered (`OK`), every error code counted, and its stats.
 * The limits go in `fleet.limits` (the spelling every version reads) unless `where` says `client`.
 */
import { SmsClient } from '../../src/index.js';
import { connectRedis } from '../fleet/connect-redis.js';

export interface LimitsReplicaConfig {
  readonly redisUrl: string;
  readonly lib: 'node-redis' | 'ioredis';
  readonly prefix: string;
  readonly baseUrl: string;
  readonly accessKeyId: string;
  readonly accessKeySecret: string;
  readonly phoneNumber: string;
  /** Sent to in turn instead of `phoneNumber`, when given (spellings of one phone, or many phones). */
  readonly phoneNumbers?: readonly string[];
  /** `send(request, { caller })`. */
  readonly caller?: string;
  /** Sends exactly this many times (every `intervalMs`), whatever `durationMs` says, when given. */
  readonly sends?: number;
  readonly limits: Record<string, unknown>;
  readonly where?: 'client' | 'fleet';
  /** `fleet.timeoutMs`; the package's default when absent. */
  readonly timeoutMs?: number;
  readonly durationMs: number;
  readonly intervalMs: number;
}

const config = JSON.parse(process.env.REPLICA ?? '{}') as LimitsReplicaConfig;

const { redis, close } = await connectRedis(config.lib, config.redisUrl);
const fleet = { redis, prefix: config.prefix, ...(config.timeoutMs !== undefined && { timeoutMs: config.timeoutMs }) };
const client = new SmsClient({
  accessKeyId: config.accessKeyId,
  accessKeySecret: config.accessKeySecret,
  baseUrl: config.baseUrl,
  ...(config.where === 'client' ? { fleet, limits: config.limits } : { fleet: { ...fleet, limits: config.limits } }),
});
const go = new Promise((resolve) => process.once('SIGUSR2', resolve));
process.stderr.write('ready\n');
await go;
const codes: Record<string, number> = {};
const endAt = Date.now() + config.durationMs;
const numbers = config.phoneNumbers ?? [config.phoneNumber];
const options = config.caller === undefined ? undefined : { caller: config.caller };
const more = (turn: number) => (config.sends === undefined ? Date.now() < endAt : turn < config.sends);
for (let turn = 0; more(turn); turn++) {
  const started = Date.now();
  let code: string;
  try {
    const request = {
      phoneNumbers: numbers[turn % numbers.length] ?? config.phoneNumber,
      templateCode: 'SMS_100000001',
      signName: 'Sandbox',
      templateParam: { code: '123456' },
    };
    code = (await client.send(request, options)).code;
  } catch (error) {
    code = String((error as { code?: unknown }).code);
  }
  codes[code] = (codes[code] ?? 0) + 1;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, config.intervalMs - (Date.now() - started))));
}
process.stdout.write(`${JSON.stringify({ delivered: codes.OK ?? 0, codes, stats: client.stats() })}\n`);
await close();
process.exit(0);
