import type { RateLimiterRedis as Quota, RateLimiterRes as QuotaRefusal } from 'rate-limiter-flexible';
import RateLimiterRedis from 'rate-limiter-flexible/lib/RateLimiterRedis.js';
import RateLimiterRes from 'rate-limiter-flexible/lib/RateLimiterRes.js';
import type { ClientName } from '../observe/events.js';
import type { Observers } from '../observe/observers.js';
import { type RedisLink, UNAVAILABLE } from '../redis/redis-link.js';
import type { FleetGate } from '../transport/resilience/fleet-gate.js';
import { refusedWait, type WaitKind, type WaitLimit } from '../transport/resilience/wait-limit.js';
import type { AbortLike } from '../util/abort-like.js';
import { sleep } from '../util/sleep.js';

/*
 * The fleet's side of the rate gate: one 429 pause and one request quota for
 * every replica sharing the prefix. The pause is a Redis key whose time to
 * live is the pause (clock-free: replicas' clocks never meet), extended only
 * by a later answer asking for longer; it is read in the background, so an
 * attempt never waits for Redis to learn there is no pause. The quota is
 * rate-limiter-flexible's RateLimiterRedis. On any Redis failure both step
 * aside: the replica's own gate (its `rateLimit`, its own pauses) holds it.
 *
 * Anyone who can write the shared Redis can write these keys: what is read
 * back is a hint, bounded before it is obeyed. A pause longer than
 * `maxPauseMs`, or without expiry, and a quota refusal longer than its
 * window or over a counter past any real count, are Redis failures (the
 * fleet steps aside), never waits; and no wait outlasts the call's budget.
 */

/** Sets the pause to `ARGV[1]` ms unless one at least as long is in force. */
const PAUSE_SCRIPT =
  "local t = redis.call('PTTL', KEYS[1]) if t < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) return 1 end return 0";

/** How stale this replica's view of the fleet's pause may be, in ms. */
const PAUSE_READ_INTERVAL_MS = 20;
/** A pause read from Redis that ends within this of the one this replica knew is the same pause (not said again). */
const SAME_PAUSE_MS = 1_000;
/** Spread of the retries of attempts refused by the quota, so they do not all come back at once. */
const QUOTA_JITTER_MS = 10;
/**
 * How far the quota's counter may pass its points in one window: each
 * refused attempt of the fleet adds one, so a real count stays far below.
 */
const QUOTA_OVERDRAW_CAP = 100_000;
/** Longest an attempt waits for room in the fleet's quota, in all, when its call has no budget, in ms. */
const QUOTA_WAIT_CAP_MS = 60_000;

/** Counters of the shared gate, for `stats().fleet`. */
export interface GateCounters {
  /** Attempts held by the fleet (its pause or its quota), counted when the hold starts, and for how long in all, in ms. */
  held: number;
  heldMs: number;
  /** Attempts held by the fleet right now. */
  holding: number;
  /** `429` pauses this replica told the fleet about. */
  pausesReported: number;
}

/** The quota of the fleet as rate-limiter-flexible counts it: `points` per `duration` seconds. */
function quotaWindow(requestsPerSecond: number): { points: number; duration: number } {
  if (requestsPerSecond >= 1) return { points: Math.floor(requestsPerSecond), duration: 1 };
  return { points: 1, duration: Math.ceil(1 / requestsPerSecond) };
}

/** A whole number of ms from 1 to `max`: the only pause or quota wait read from Redis that is obeyed. */
const inRange = (value: unknown, max: number): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= max;

/** One client's view of the fleet-wide pause and quota. */
export class SharedGate implements FleetGate {
  readonly #link: RedisLink;
  readonly #pauseKey: string;
  readonly #maxPauseMs: number;
  readonly #quota: Quota | undefined;
  readonly #quotaKey = 'attempts';
  /** The quota's window and points, the bounds of what a refusal may say. */
  readonly #windowMs: number;
  readonly #points: number;
  readonly #observers: Observers | undefined;
  readonly #name: ClientName;
  /** This replica's view of the pause: until when, on `performance.now()`'s clock. */
  #pausedUntil = 0;
  #readAt = Number.NEGATIVE_INFINITY;
  #reading = false;
  readonly counters: GateCounters = { held: 0, heldMs: 0, holding: 0, pausesReported: 0 };

  constructor(
    link: RedisLink,
    options: {
      readonly keyPrefix: string;
      readonly maxPauseMs: number;
      readonly rate: { readonly requestsPerSecond: number } | undefined;
      readonly observers?: Observers | undefined;
      readonly name?: ClientName | undefined;
    },
  ) {
    this.#link = link;
    this.#pauseKey = `${options.keyPrefix}:pause`;
    this.#maxPauseMs = options.maxPauseMs;
    this.#observers = options.observers;
    this.#name = options.name ?? 'hashscan';
    const window = quotaWindow(options.rate?.requestsPerSecond ?? 1);
    this.#windowMs = window.duration * 1000;
    this.#points = window.points;
    this.#quota =
      options.rate === undefined
        ? undefined
        : new RateLimiterRedis({
            storeClient: link.client,
            useRedisPackage: link.kind === 'node-redis',
            keyPrefix: `${options.keyPrefix}:quota`,
            ...window,
          });
  }

  /** When the fleet's pause, as this replica sees it, ends (ms since the epoch); `undefined` when none is in force. */
  get pausedUntil(): number | undefined {
    const left = this.#pausedUntil - performance.now();
    return left > 0 ? Math.round(Date.now() + left) : undefined;
  }

  pause(ms: number): void {
    if (this.#maxPauseMs === 0) return;
    const pauseMs = Math.ceil(Math.min(ms, this.#maxPauseMs));
    this.#pausedUntil = Math.max(this.#pausedUntil, performance.now() + pauseMs);
    this.counters.pausesReported += 1;
    void this.#link.command(['EVAL', PAUSE_SCRIPT, '1', this.#pauseKey, String(pauseMs)]);
  }

  pass(signal: AbortLike | undefined, onAbort: () => Error, limit?: WaitLimit): Promise<void> | undefined {
    if (this.#maxPauseMs === 0 && this.#quota === undefined) return undefined;
    const now = performance.now();
    if (this.#maxPauseMs > 0 && now - this.#readAt >= PAUSE_READ_INTERVAL_MS) this.#readPause(now);
    if (this.#pausedUntil <= now && this.#quota === undefined) return undefined;
    return this.#hold(signal, onAbort, limit);
  }

  async #hold(signal: AbortLike | undefined, onAbort: () => Error, limit: WaitLimit | undefined): Promise<void> {
    const started = performance.now();
    let held = false;
    const hold = (): void => {
      if (held) return;
      held = true;
      this.counters.held += 1;
      this.counters.holding += 1;
    };
    try {
      // The pause first, as long as it lasts (a later 429 may extend it), never longer than maxPauseMs in all.
      for (let now = started; this.#pausedUntil > now && now - started < this.#maxPauseMs; now = performance.now()) {
        const waitMs = Math.ceil(Math.min(this.#pausedUntil - now, this.#maxPauseMs - (now - started)));
        check(limit, waitMs, 'fleet-pause');
        hold();
        await sleep(waitMs, signal, onAbort);
        now = performance.now();
        if (now - this.#readAt >= PAUSE_READ_INTERVAL_MS) await this.#readPause(now);
      }
      if (this.#quota !== undefined) await this.#takeQuota(this.#quota, signal, onAbort, limit, hold);
    } finally {
      if (held) {
        this.counters.holding -= 1;
        this.counters.heldMs += performance.now() - started;
      }
    }
  }

  /** Waits for room in the fleet's quota, each wait within the window, all of them within the budget and the cap. */
  async #takeQuota(
    quota: Quota,
    signal: AbortLike | undefined,
    onAbort: () => Error,
    limit: WaitLimit | undefined,
    hold: () => void,
  ): Promise<void> {
    for (let waited = 0; ; ) {
      const answer = await this.#link.run(() =>
        quota.consume(this.#quotaKey).then(
          (): undefined => undefined,
          (refusal: unknown): QuotaRefusal => {
            // A refusal is an answer (wait this long); anything else is a Redis failure.
            if (refusal instanceof RateLimiterRes) return refusal;
            throw refusal;
          },
        ),
      );
      if (answer === undefined || answer === UNAVAILABLE) return;
      const { msBeforeNext, consumedPoints } = answer;
      // 0: the window ends now (its key about to expire), a legitimate answer.
      const windowLeft = msBeforeNext === 0 ? 1 : msBeforeNext;
      if (!inRange(windowLeft, this.#windowMs) || !inRange(consumedPoints, this.#points + QUOTA_OVERDRAW_CAP)) {
        // Not a count any replica could have made: someone else wrote the key. Step aside, as for a dead Redis.
        this.#link.outOfRange('QUOTA_OUT_OF_RANGE');
        return;
      }
      const waitMs = windowLeft + Math.floor(Math.random() * QUOTA_JITTER_MS);
      if (limit !== undefined && limit.deadline === undefined && waited + waitMs > QUOTA_WAIT_CAP_MS) {
        throw limit.refuse(waitMs, 'fleet-quota');
      }
      check(limit, waitMs, 'fleet-quota');
      hold();
      await sleep(waitMs, signal, onAbort);
      waited += waitMs;
    }
  }

  /** Refreshes this replica's view of the pause (in the background unless awaited); a failure keeps the old view. */
  #readPause(now: number): Promise<void> {
    if (this.#reading) return Promise.resolve();
    this.#reading = true;
    this.#readAt = now;
    return this.#link.command(['PTTL', this.#pauseKey]).then((ttl) => {
      this.#reading = false;
      // -2 (or 0, expiring): no pause. Anything else but 1..maxPauseMs (no expiry, longer than any replica sets) is not obeyed.
      if (ttl === UNAVAILABLE || ttl === -2 || ttl === 0) return;
      if (!inRange(ttl, this.#maxPauseMs)) {
        this.#link.outOfRange('PAUSE_OUT_OF_RANGE');
        return;
      }
      const until = now + ttl;
      if (until <= this.#pausedUntil) return;
      // Said once per pause: one read again while in force, or the key's tail of one this replica set, is the same pause.
      if (this.#pausedUntil <= now && until > this.#pausedUntil + SAME_PAUSE_MS && this.#observers?.listens('pause')) {
        this.#observers.emit({ type: 'pause', client: this.#name, source: 'fleet', pauseMs: ttl });
      }
      this.#pausedUntil = until;
    });
  }
}

/** Throws the call's refusal when a wait of `waitMs` would end past its budget. */
function check(limit: WaitLimit | undefined, waitMs: number, kind: WaitKind): void {
  const refusal = refusedWait(limit, waitMs, kind);
  if (refusal !== undefined) throw refusal;
}
