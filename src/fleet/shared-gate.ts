import type { RateLimiterRedis as Quota } from 'rate-limiter-flexible';
import RateLimiterRedis from 'rate-limiter-flexible/lib/RateLimiterRedis.js';
import RateLimiterRes from 'rate-limiter-flexible/lib/RateLimiterRes.js';
import type { FleetGate } from '../transport/resilience/fleet-gate.js';
import type { AbortLike } from '../util/abort-like.js';
import { sleep } from '../util/sleep.js';
import { type RedisLink, UNAVAILABLE } from './redis-link.js';

/*
 * The fleet's side of the rate gate: one 429 pause and one request quota for
 * every replica sharing the prefix. The pause is a Redis key whose time to
 * live is the pause (clock-free: replicas' clocks never meet), extended only
 * by a later answer asking for longer; it is read in the background, so an
 * attempt never waits for Redis to learn there is no pause. The quota is
 * rate-limiter-flexible's RateLimiterRedis. On any Redis failure both step
 * aside: the replica's own gate (its `rateLimit`, its own pauses) holds it.
 */

/** Sets the pause to `ARGV[1]` ms unless one at least as long is in force. */
const PAUSE_SCRIPT =
  "local t = redis.call('PTTL', KEYS[1]) if t < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) return 1 end return 0";

/** How stale this replica's view of the fleet's pause may be, in ms. */
const PAUSE_READ_INTERVAL_MS = 20;
/** Spread of the retries of attempts refused by the quota, so they do not all come back at once. */
const QUOTA_JITTER_MS = 10;

/** Counters of the shared gate, for `stats().fleet`. */
export interface GateCounters {
  /** Attempts held by the fleet (its pause or its quota), and for how long in all, in ms. */
  held: number;
  heldMs: number;
  /** `429` pauses this replica told the fleet about. */
  pausesReported: number;
}

/** The quota of the fleet as rate-limiter-flexible counts it: `points` per `duration` seconds. */
function quotaWindow(requestsPerSecond: number): { points: number; duration: number } {
  if (requestsPerSecond >= 1) return { points: Math.floor(requestsPerSecond), duration: 1 };
  return { points: 1, duration: Math.ceil(1 / requestsPerSecond) };
}

/** One client's view of the fleet-wide pause and quota. */
export class SharedGate implements FleetGate {
  readonly #link: RedisLink;
  readonly #pauseKey: string;
  readonly #maxPauseMs: number;
  readonly #quota: Quota | undefined;
  readonly #quotaKey = 'attempts';
  /** This replica's view of the pause: until when, on `performance.now()`'s clock. */
  #pausedUntil = 0;
  #readAt = Number.NEGATIVE_INFINITY;
  #reading = false;
  readonly counters: GateCounters = { held: 0, heldMs: 0, pausesReported: 0 };

  constructor(
    link: RedisLink,
    options: {
      readonly keyPrefix: string;
      readonly maxPauseMs: number;
      readonly rate: { readonly requestsPerSecond: number } | undefined;
    },
  ) {
    this.#link = link;
    this.#pauseKey = `${options.keyPrefix}:pause`;
    this.#maxPauseMs = options.maxPauseMs;
    this.#quota =
      options.rate === undefined
        ? undefined
        : new RateLimiterRedis({
            storeClient: link.client,
            useRedisPackage: link.kind === 'node-redis',
            keyPrefix: `${options.keyPrefix}:quota`,
            ...quotaWindow(options.rate.requestsPerSecond),
          });
  }

  pause(ms: number): void {
    if (this.#maxPauseMs === 0) return;
    const pauseMs = Math.ceil(Math.min(ms, this.#maxPauseMs));
    this.#pausedUntil = Math.max(this.#pausedUntil, performance.now() + pauseMs);
    this.counters.pausesReported += 1;
    void this.#link.command(['EVAL', PAUSE_SCRIPT, '1', this.#pauseKey, String(pauseMs)]);
  }

  pass(signal: AbortLike | undefined, onAbort: () => Error): Promise<void> | undefined {
    if (this.#maxPauseMs === 0 && this.#quota === undefined) return undefined;
    const now = performance.now();
    if (this.#maxPauseMs > 0 && now - this.#readAt >= PAUSE_READ_INTERVAL_MS) this.#readPause(now);
    if (this.#pausedUntil <= now && this.#quota === undefined) return undefined;
    return this.#hold(signal, onAbort);
  }

  async #hold(signal: AbortLike | undefined, onAbort: () => Error): Promise<void> {
    const started = performance.now();
    let held = false;
    try {
      // The pause first, as long as it lasts (a later 429 may extend it), never longer than maxPauseMs in all.
      for (let now = started; this.#pausedUntil > now && now - started < this.#maxPauseMs; now = performance.now()) {
        held = true;
        await sleep(Math.ceil(Math.min(this.#pausedUntil - now, this.#maxPauseMs - (now - started))), signal, onAbort);
        now = performance.now();
        if (now - this.#readAt >= PAUSE_READ_INTERVAL_MS) await this.#readPause(now);
      }
      if (this.#quota !== undefined) held = (await this.#takeQuota(this.#quota, signal, onAbort)) || held;
    } finally {
      if (held) {
        this.counters.held += 1;
        this.counters.heldMs += performance.now() - started;
      }
    }
  }

  /** Waits for room in the fleet's quota; `true` when it had to wait. */
  async #takeQuota(quota: Quota, signal: AbortLike | undefined, onAbort: () => Error): Promise<boolean> {
    for (let waited = false; ; waited = true) {
      const answer = await this.#link.run(() =>
        quota.consume(this.#quotaKey).then(
          (): number | undefined => undefined,
          (refusal: unknown): number => {
            // A refusal is an answer (wait this long); anything else is a Redis failure.
            if (refusal instanceof RateLimiterRes) return refusal.msBeforeNext;
            throw refusal;
          },
        ),
      );
      if (answer === undefined || answer === UNAVAILABLE) return waited;
      await sleep(Math.max(1, answer) + Math.floor(Math.random() * QUOTA_JITTER_MS), signal, onAbort);
    }
  }

  /** Refreshes this replica's view of the pause (in the background unless awaited); a failure keeps the old view. */
  #readPause(now: number): Promise<void> {
    if (this.#reading) return Promise.resolve();
    this.#reading = true;
    this.#readAt = now;
    return this.#link.command(['PTTL', this.#pauseKey]).then((ttl) => {
      this.#reading = false;
      if (typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0) {
        this.#pausedUntil = Math.max(this.#pausedUntil, now + Math.min(ttl, this.#maxPauseMs));
      }
    });
  }
}
