import { ConfigurationError } from '../errors/configuration-error.js';
import type { ClientName, FleetUse } from '../observe/events.js';
import type { Observers } from '../observe/observers.js';
import { warnOnce } from '../observe/process-warning.js';
import {
  type BackoffListener,
  BoundedCalls,
  FIRST_BACKOFF_MS,
  UNAVAILABLE,
  type Unavailable,
} from '../store/bounded-calls.js';

/*
 * The fleet's one way to Redis: the application's own client (node-redis v5+
 * or ioredis), spoken to in raw commands so both look the same, every call
 * bounded in time and never throwing (`store/bounded-calls.ts`: the one
 * back-off policy of every outside store). Failures that are a share of a
 * second's calls, or one reply out of range, make the link step aside
 * (each replica on its own, as without `fleet`; the sending limits have a
 * sibling link that steps aside on its own), reported once through the
 * observer seam (`fleet` events: the logger writes them), and once again
 * when Redis answers a probe.
 */

/**
 * A connected node-redis (v5 or later) or ioredis client, owned by the
 * application: the package never connects, quits or reconfigures it. Create
 * it with its offline queue off, so that commands fail at once while Redis is
 * down instead of piling up and being replayed on reconnection:
 * node-redis `createClient({ url, disableOfflineQueue: true })`, ioredis
 * `new Redis(url, { enableOfflineQueue: false })`.
 */
export type FleetRedisClient = NodeRedisLike | IoRedisLike;

/** What the fleet uses of a node-redis client (`createClient()` of `redis` v5 or later). */
export interface NodeRedisLike {
  /** Sends one raw command. */
  sendCommand(args: string[]): Promise<unknown>;
  /** Whether the connection is ready (tells node-redis from ioredis). */
  readonly isReady: boolean;
  /** The client's options: only `disableOfflineQueue` is read, to warn when it is off. */
  readonly options?: NodeRedisQueueOption | undefined;
}

/** The option of node-redis that keeps commands from queueing while disconnected. */
export interface NodeRedisQueueOption {
  /** `true`: commands fail at once while disconnected (what the fleet wants). */
  readonly disableOfflineQueue?: boolean | undefined;
}

/** What the fleet uses of an ioredis client (`new Redis()`). */
export interface IoRedisLike {
  /** Sends one raw command. */
  call(command: string, ...args: string[]): Promise<unknown>;
  /** Defines a Lua command (rate-limiter-flexible uses it; tells ioredis from node-redis). */
  defineCommand(name: string, definition: { numberOfKeys: number; lua: string }): void;
  /** The connection's state, e.g. `ready`. */
  readonly status: string;
  /** The client's options: only `enableOfflineQueue` is read, to warn when it is on. */
  readonly options?: IoRedisQueueOption | undefined;
}

/** The option of ioredis that keeps commands from queueing while disconnected. */
export interface IoRedisQueueOption {
  /** `false`: commands fail at once while disconnected (what the fleet wants). */
  readonly enableOfflineQueue?: boolean | undefined;
}

/** Which library a client comes from. */
export type RedisKind = 'node-redis' | 'ioredis';

/** Tells node-redis from ioredis by shape; anything else is a configuration error. */
export function redisKind(client: unknown): RedisKind {
  if (typeof client === 'object' && client !== null) {
    const candidate = client as Partial<Record<string, unknown>>;
    if (typeof candidate.call === 'function' && typeof candidate.defineCommand === 'function') return 'ioredis';
    if (typeof candidate.sendCommand === 'function' && typeof candidate.isReady === 'boolean') return 'node-redis';
  }
  throw new ConfigurationError('fleet.redis', 'must be a node-redis (v5 or later) or ioredis client');
}

/** Whether the client queues commands while disconnected (and would replay them later). */
function queuesOffline(client: FleetRedisClient, kind: RedisKind): boolean {
  try {
    if (kind === 'ioredis') return (client as IoRedisLike).options?.enableOfflineQueue !== false;
    return (client as NodeRedisLike).options?.disableOfflineQueue !== true;
  } catch {
    return true;
  }
}

/** The value of a failed or skipped call. */
export { UNAVAILABLE, type Unavailable };

/** How long the fleet first leaves Redis alone once benched, in ms (then one call probes it). */
export const FLEET_BACKOFF_MS = FIRST_BACKOFF_MS;

/** Counters of the link, for `stats().fleet`. */
export interface LinkCounters {
  /** Redis calls that failed or took longer than `fleet.timeoutMs`. */
  errors: number;
  /** Calls not made because the link was stepping aside after failures. */
  skipped: number;
  /** Replies out of range (a time to live past its cap, a counter of the wrong type or size), treated as failures. */
  outOfRange: number;
}

/** Bounded, never-throwing raw commands to the application's Redis client. */
export class RedisLink {
  readonly client: FleetRedisClient;
  readonly kind: RedisKind;
  readonly timeoutMs: number;
  readonly #observers: Observers;
  readonly #name: ClientName;
  /** Which feature this link serves, when not the fleet's own coordination (its events say so). */
  readonly #use: FleetUse | undefined;
  readonly #calls: BoundedCalls;
  readonly counters: LinkCounters;

  constructor(
    client: FleetRedisClient,
    options: { timeoutMs: number; observers: Observers; name: ClientName; counters?: LinkCounters; use?: FleetUse },
  ) {
    this.kind = redisKind(client);
    this.client = client;
    this.timeoutMs = options.timeoutMs;
    this.#observers = options.observers;
    this.#name = options.name;
    this.#use = options.use;
    this.counters = options.counters ?? { errors: 0, skipped: 0, outOfRange: 0 };
    this.#calls = new BoundedCalls(options.timeoutMs, this.#listener());
    // A sibling was checked (and warned about) with its first link.
    if (options.counters === undefined && queuesOffline(client, this.kind)) {
      const setting = this.kind === 'ioredis' ? 'enableOfflineQueue: false' : 'disableOfflineQueue: true';
      // Whatever logger is set (the default is silent): once per process, as Node's own warnings.
      warnOnce(
        'HASHSCAN_SMS_FLEET_OFFLINE_QUEUE',
        `the fleet's ${this.kind} client queues commands while disconnected: create it with { ${setting} } so an outage fails fast and nothing is replayed later`,
      );
      if (this.#observers.listens('fleet:offline-queue')) {
        this.#observers.emit({ type: 'fleet:offline-queue', client: this.#name, setting });
      }
    }
  }

  /**
   * A link over the same client, counted in the same counters, that steps
   * aside on its own: a feature whose keys are out of range (a forged pause)
   * does not switch off another's (the sending limits). Its `fleet` events
   * name `use`, so an outage seen by both links reads as two features, not as one line twice.
   */
  sibling(use: FleetUse): RedisLink {
    return new RedisLink(this.client, {
      timeoutMs: this.timeoutMs,
      observers: this.#observers,
      name: this.#name,
      counters: this.counters,
      use,
    });
  }

  /** Whether the link steps aside now (a call would be skipped; each replica on its own meanwhile). */
  get down(): boolean {
    return this.#calls.skipsNow;
  }

  /** One raw command: its reply, or {@link UNAVAILABLE} on failure, time-out or back-off. */
  command(args: readonly string[]): Promise<unknown> {
    return this.#calls.run(() => this.#send(args));
  }

  /** One raw command, unbounded and throwing as the client does (for callers that bound calls themselves). */
  raw(args: readonly string[]): Promise<unknown> {
    return this.#send(args);
  }

  /**
   * Any call on the client (a rate limiter's), bounded the same way.
   * `undoing`: a call that undoes one that may have run (a lock's release)
   * is made even while the link steps aside.
   */
  run<T>(call: () => Promise<T>, undoing = false): Promise<T | Unavailable> {
    return this.#calls.run(call, undefined, undoing);
  }

  /**
   * A reply that is out of range (`what` names it, e.g. `PAUSE_OUT_OF_RANGE`)
   * is never obeyed: it counts as a failure of Redis, and the link steps
   * aside at once (a store that lies is not weighed like a slow one).
   */
  outOfRange(what: string): void {
    this.counters.outOfRange += 1;
    this.#calls.outOfRange(what);
  }

  #send(args: readonly string[]): Promise<unknown> {
    if (this.kind === 'ioredis') {
      const [command = '', ...rest] = args;
      return (this.client as IoRedisLike).call(command, ...rest);
    }
    return (this.client as NodeRedisLike).sendCommand([...args]);
  }

  /** Counters and `fleet` events: once when the link steps aside, once when Redis answers a probe. */
  #listener(): BackoffListener<undefined> {
    const counters = this.counters;
    const emit = (state: 'unavailable' | 'resumed', code?: string): void => {
      if (!this.#observers.listens('fleet')) return;
      const failure = code === undefined ? {} : { code };
      this.#observers.emit({ type: 'fleet', client: this.#name, state, ...failure, ...this.#usedBy() });
    };
    return {
      failed: () => {
        counters.errors += 1;
      },
      benched: (failure) => emit('unavailable', failure.reason === 'timeout' ? 'TIMEOUT' : failure.code),
      resumed: () => emit('resumed'),
      skipped: () => {
        counters.skipped += 1;
      },
    };
  }

  #usedBy(): { use?: FleetUse } {
    return this.#use === undefined ? {} : { use: this.#use };
  }
}
