import { ConfigurationError } from '../errors/configuration-error.js';
import type { ClientName, FleetUse } from '../observe/events.js';
import type { Observers } from '../observe/observers.js';
import { warnOnce } from '../observe/process-warning.js';
import { errorCode } from '../util/error-code.js';

/*
 * The fleet's one way to Redis: the application's own client (node-redis v5+
 * or ioredis), spoken to in raw commands so both look the same, every call
 * bounded in time and never throwing. A failure makes the link step aside
 * for a moment (each replica on its own, as without `fleet`; the sending
 * limits have a sibling link that steps aside on its own),
 * reported once through the observer seam (`fleet` events: the logger
 * writes them), and once again when Redis answers.
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
function redisKind(client: unknown): RedisKind {
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
export const UNAVAILABLE: unique symbol = Symbol('fleet Redis unavailable');
export type Unavailable = typeof UNAVAILABLE;

/** How long the fleet leaves Redis alone after a failed call, in ms. */
export const FLEET_BACKOFF_MS = 1_000;

/** Counters of the link, for `stats().fleet`. */
export interface LinkCounters {
  /** Redis calls that failed or took longer than `fleet.timeoutMs`. */
  errors: number;
  /** Calls not made because the link was backing off after a failure. */
  skipped: number;
  /** Replies out of range (a time to live past its cap, a counter of the wrong type or size), treated as failures. */
  outOfRange: number;
}

const TIMED_OUT = Symbol('timed out');

/** Bounded, never-throwing raw commands to the application's Redis client. */
export class RedisLink {
  readonly client: FleetRedisClient;
  readonly kind: RedisKind;
  readonly timeoutMs: number;
  readonly #observers: Observers;
  readonly #name: ClientName;
  /** Which feature this link serves, when not the fleet's own coordination (its events say so). */
  readonly #use: FleetUse | undefined;
  #resumeAt = Number.NEGATIVE_INFINITY;
  #down = false;
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

  /** Whether the link is backing off (each replica on its own meanwhile). */
  get down(): boolean {
    return this.#down && performance.now() < this.#resumeAt;
  }

  /** One raw command: its reply, or {@link UNAVAILABLE} on failure, time-out or back-off. */
  command(args: readonly string[]): Promise<unknown> {
    return this.run(() => this.#send(args));
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
  async run<T>(call: () => Promise<T>, undoing = false): Promise<T | Unavailable> {
    if (!undoing && performance.now() < this.#resumeAt) {
      this.counters.skipped += 1;
      return UNAVAILABLE;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
        // Decided after the poll phase: a reply that arrived while the event loop was busy is read first,
        // so a loaded process does not take its own lag for a slow Redis.
        timer = setTimeout(() => afterPoll(() => resolve(TIMED_OUT)), this.timeoutMs);
      });
      const outcome = await Promise.race([Promise.resolve().then(call), timeout]);
      if (outcome === TIMED_OUT) {
        this.#failed('TIMEOUT');
        return UNAVAILABLE;
      }
      if (this.#down) {
        this.#down = false;
        if (this.#observers.listens('fleet'))
          this.#observers.emit({ type: 'fleet', client: this.#name, state: 'resumed', ...this.#usedBy() });
      }
      return outcome;
    } catch (error) {
      this.#failed(errorCode(error));
      return UNAVAILABLE;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A reply that is out of range (`what` names it, e.g. `PAUSE_OUT_OF_RANGE`)
   * is never obeyed: it counts as a failure of Redis, and the fleet steps
   * aside as it does for a dead Redis.
   */
  outOfRange(what: string): void {
    this.counters.outOfRange += 1;
    this.#failed(what);
  }

  #send(args: readonly string[]): Promise<unknown> {
    if (this.kind === 'ioredis') {
      const [command = '', ...rest] = args;
      return (this.client as IoRedisLike).call(command, ...rest);
    }
    return (this.client as NodeRedisLike).sendCommand([...args]);
  }

  /** Any failure (not "three in a row": overlapping failures would count once) leaves Redis alone for a while. */
  #failed(detail: string): void {
    this.counters.errors += 1;
    this.#resumeAt = performance.now() + FLEET_BACKOFF_MS;
    if (this.#down) return;
    this.#down = true;
    if (this.#observers.listens('fleet')) {
      this.#observers.emit({
        type: 'fleet',
        client: this.#name,
        state: 'unavailable',
        code: detail,
        ...this.#usedBy(),
      });
    }
  }

  #usedBy(): { use?: FleetUse } {
    return this.#use === undefined ? {} : { use: this.#use };
  }
}

/** After the event loop's poll phase where the runtime has `setImmediate`; a Worker without `nodejs_compat` has none. */
function afterPoll(run: () => void): void {
  if (typeof globalThis.setImmediate === 'function') globalThis.setImmediate(run);
  else setTimeout(run, 0);
}
