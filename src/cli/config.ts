import { type DurationRange, durationText } from '../config/duration.js';
import { type WholeRange, wholeNumberText } from '../config/numbers.js';
import { ConfigurationError, HashScanClient, type Logger, SmsClient } from '../index.js';
import type { Observer } from '../observe/events.js';
import { INTERNAL_OBSERVERS } from '../observe/observers.js';
// `hashscan-sms/sandbox`, not `hashscan-sms/testing`: that entry loads msw, which the CLI must never need.
import { type Sandbox, startSandbox } from '../sandbox/index.js';
import type { Diagnostics } from './io.js';
import { openFleet, REDIS_TIMEOUT_RANGE } from './queue/fleet-flag.js';
import { Agent } from './undici-agent.js';
import { UsageError } from './usage-error.js';

/** What a command gets to talk to the service with; `close()` ends the connections and any in-process sandbox. */
export interface Connection<C> {
  readonly client: C;
  close(): Promise<void>;
}

/** Flags shared by the commands that send requests. */
export interface ConnectionFlags {
  readonly sandbox?: boolean;
  readonly 'base-url'?: string;
  readonly timeout?: string;
  readonly retries?: string;
  /** `scan` and `lookup`: a Redis shared with other runs and replicas. */
  readonly redis?: string;
  /** With `redis`: the longest wait for one Redis call (a duration). */
  readonly 'redis-timeout'?: string;
  /** `worker`: requests per second for the whole fleet. */
  readonly rate?: string;
}

/**
 * The CLI owns its process and nobody mocks its `fetch`, so it sends through
 * the clients' undici dispatcher path (far less CPU per request than
 * `fetch`, BENCHMARKS.md). undici is bundled into `dist/cli.js` at build time rather
 * than added as a dependency: library users, who choose their own transport,
 * do not install it.
 */
function dispatcher(connections: number): Agent {
  return new Agent({ connections, keepAliveTimeout: 10_000 });
}

/** A whole-number flag, checked by the validator the clients use; a bad one is a usage error. */
export function flagNumber(value: string | undefined, flag: string, range: WholeRange): number | undefined {
  return asUsageError(() => wholeNumberText(value, `--${flag}`, range));
}

/** A duration flag (`90s`, `15m`, `12h`, `7d`; bare digits are ms), in ms; a bad one is a usage error. */
export function flagDuration(value: string | undefined, flag: string, range: DurationRange): number | undefined {
  return asUsageError(() => durationText(value, `--${flag}`, range));
}

function asUsageError<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof ConfigurationError) throw new UsageError(error.message.replace(': ', ' '));
    throw error;
  }
}

/** Drops `undefined` settings, so the clients apply their own defaults (exact optional types). */
function defined<T extends Record<string, unknown>>(settings: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}

function common(flags: ConnectionFlags, logger: Logger | undefined) {
  const timeoutMs = flagNumber(flags.timeout, 'timeout', { min: 1, max: 600_000 });
  const retries = flagNumber(flags.retries, 'retries', { min: 0, max: 10 });
  const requestsPerSecond = flagNumber(flags.rate, 'rate', { min: 1, max: 1_000_000 });
  return {
    ...(requestsPerSecond === undefined ? {} : { rateLimit: { requestsPerSecond } }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(retries === undefined ? {} : { retry: retries === 0 ? (false as const) : { retries } }),
    ...(logger === undefined ? {} : { logger }),
  };
}

/** Where the command line takes each client option from: what it is, and its flag (if any) and variable. */
type OptionSources = Readonly<Record<string, readonly [what: string, from: string]>>;

const HASHSCAN_SOURCES: OptionSources = {
  apiKey: ['API key', '--api-key or HASHSCAN_API_KEY'],
  baseUrl: ['base URL', '--base-url or HASHSCAN_BASE_URL'],
};

const SMS_SOURCES: OptionSources = {
  accessKeyId: ['access key id', '--access-key-id or SMS_ACCESS_KEY_ID'],
  accessKeySecret: ['access key secret', 'SMS_ACCESS_KEY_SECRET (never a flag)'],
  baseUrl: ['base URL', '--base-url or SMS_BASE_URL'],
};

/**
 * Turns a client's configuration error into a usage error (exit 64) that names the flag and variable
 * a command-line user sets, not the library option (`apiKey`); its message holds no secret.
 */
function construct<C>(build: () => C, sources: OptionSources): C {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    const source = sources[error.option];
    if (source === undefined) throw new UsageError(error.message);
    const [what, from] = source;
    if (/ is required/.test(error.message)) {
      throw new UsageError(`missing ${what}: set ${from} (or try it offline with --sandbox)`);
    }
    throw new UsageError(`${from}: ${error.message.slice(error.option.length + 2)}`);
  }
}

/**
 * Starts the `--sandbox` (if asked) and an undici agent, then builds the
 * client with them; whatever fails, nothing is left running.
 */
async function connect<C>(
  flags: ConnectionFlags,
  connections: number,
  sources: OptionSources,
  build: (sandbox: Sandbox | undefined, agent: Agent) => C,
): Promise<Connection<C>> {
  const sandbox = flags.sandbox === true ? await startSandbox() : undefined;
  const agent = dispatcher(connections);
  const close = async (): Promise<void> => {
    await agent.close();
    await sandbox?.close();
  };
  try {
    return { client: construct(() => build(sandbox, agent), sources), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A `HashScanClient` from flags, then `HASHSCAN_*` variables, or an in-process sandbox with `--sandbox`. */
export async function connectHashScan(
  flags: ConnectionFlags & { readonly 'api-key'?: string },
  concurrency: number,
  diagnostics: Diagnostics,
  observers: readonly Observer[] = [],
): Promise<Connection<HashScanClient>> {
  const { env } = diagnostics.io;
  // `--redis`: the shared cache and the fleet for this run (a Redis that does not answer leaves it on its own).
  const { fleet, close: closeFleet } = await openFleet(
    flags.redis,
    flagDuration(flags['redis-timeout'], 'redis-timeout', REDIS_TIMEOUT_RANGE),
    diagnostics,
  );
  const connection = await connect(flags, concurrency, HASHSCAN_SOURCES, (sandbox, agent) => {
    const apiKey = sandbox?.apiKey ?? flags['api-key'] ?? env.HASHSCAN_API_KEY;
    diagnostics.secrets.add(apiKey);
    return new HashScanClient({
      ...defined({ baseUrl: sandbox?.hashScanUrl ?? flags['base-url'] ?? env.HASHSCAN_BASE_URL, apiKey }),
      dispatcher: agent,
      // Large enough to merge repeated hashes of a big folder or list; answers are small.
      cache: { max: 100_000 },
      ...(fleet === undefined ? {} : { fleet }),
      ...common(flags, diagnostics.logger()),
      // The observer seam (the adaptive concurrency limit reads retries and rate-gate pauses there).
      ...(observers.length === 0 ? {} : { [INTERNAL_OBSERVERS]: observers }),
    });
  }).catch(async (error: unknown) => {
    await closeFleet();
    throw error;
  });
  return {
    client: connection.client,
    close: async () => {
      await connection.close();
      await closeFleet();
    },
  };
}

/** An `SmsClient` from flags, then `SMS_*` variables, or an in-process sandbox with `--sandbox`. */
export async function connectSms(
  flags: ConnectionFlags & { readonly 'access-key-id'?: string; readonly 'retry-unknown-outcome'?: boolean },
  diagnostics: Diagnostics,
): Promise<Connection<SmsClient>> {
  const { env } = diagnostics.io;
  return connect(flags, 1, SMS_SOURCES, (sandbox, agent) => {
    const accessKeyId = sandbox?.accessKeyId ?? flags['access-key-id'] ?? env.SMS_ACCESS_KEY_ID;
    // The secret is never a flag: command lines are visible to every user of the machine (`ps`).
    const accessKeySecret = sandbox?.accessKeySecret ?? env.SMS_ACCESS_KEY_SECRET;
    diagnostics.secrets.add(accessKeySecret);
    return new SmsClient({
      ...defined({ baseUrl: sandbox?.smsUrl ?? flags['base-url'] ?? env.SMS_BASE_URL, accessKeyId, accessKeySecret }),
      dispatcher: agent,
      ...(flags['retry-unknown-outcome'] === true ? { retryUnknownOutcome: true } : {}),
      ...common(flags, diagnostics.logger()),
    });
  });
}
