import { type RedisLink, UNAVAILABLE } from '../redis/redis-link.js';
import type { AbortLike } from '../util/abort-like.js';
import { randomUUID } from '../util/crypto.js';
import { sleep } from '../util/sleep.js';

/*
 * One request per hash across the fleet. The replica that wins `SET NX PX`
 * on the hash's key asks the service; the answer reaches the shared cache
 * (sealed) before the key is released. Another replica polls the shared
 * cache for that sealed entry, and asks for itself once the key is gone
 * without an entry (the owner failed), once its bounded wait is over, or when
 * Redis fails: never a hang, and never a verdict but the service's or a
 * sealed entry's. A lock is a hint anyone with the shared Redis can write:
 * one without expiry, or longer than `lookupWaitMs` (no replica sets
 * longer), is a Redis failure and ignored at once; a wait never passes
 * `lookupWaitMs` nor the caller's budget (its signal).
 */

/** Deletes the key only if it still holds this replica's token (it may have expired and been taken since). */
const RELEASE_SCRIPT = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";
const FIRST_POLL_MS = 5;
const LONGEST_POLL_MS = 100;

/** Counters of the fleet's lookups, for `stats().fleet`. */
export interface SingleFlightCounters {
  /** Lookups this replica asked the service for as the fleet's owner of the hash. */
  owned: number;
  /** Lookups answered by another replica's request (its sealed entry). */
  joined: number;
  /** Waits that ended with asking for itself: owner gone without an answer, wait over, or Redis failing. */
  gaveUp: number;
}

/** The fleet-wide single request per hash of one `HashScanClient`. */
export class FleetLookups {
  readonly #link: RedisLink;
  readonly #keyPrefix: string;
  readonly #waitMs: number;
  readonly counters: SingleFlightCounters = { owned: 0, joined: 0, gaveUp: 0 };

  constructor(link: RedisLink, options: { readonly keyPrefix: string; readonly waitMs: number }) {
    this.#link = link;
    this.#keyPrefix = `${options.keyPrefix}:lookup:`;
    this.#waitMs = options.waitMs;
  }

  /**
   * `ask()` once for the fleet: as the owner of `hash`, or after another
   * replica's answer did not come (`poll()` reads the shared cache). An
   * aborted `signal` ends the wait with `ask()`, which then fails as aborted.
   */
  async run<T>(
    hash: string,
    ask: () => Promise<T>,
    poll: () => Promise<T | undefined> | undefined,
    signal: AbortLike,
  ): Promise<T> {
    const key = this.#keyPrefix + hash;
    const token = randomUUID();
    let sent = false;
    const claimed = await this.#link.run(() => {
      sent = true;
      return this.#link.raw(['SET', key, token, 'PX', String(this.#waitMs), 'NX']);
    });
    if (claimed === UNAVAILABLE && !sent) return ask();
    if (claimed === 'OK' || claimed === UNAVAILABLE) {
      if (claimed === 'OK') this.counters.owned += 1;
      try {
        return await ask();
      } finally {
        // A claim that failed or timed out may still have taken the lock: released by token all the same,
        // even while the link steps aside after that failure, so other replicas do not wait `lookupWaitMs`.
        void this.#link.run(() => this.#link.raw(['EVAL', RELEASE_SCRIPT, '1', key, token]), true);
      }
    }
    const answer = await this.#await(key, poll, signal);
    if (answer !== undefined) {
      this.counters.joined += 1;
      return answer;
    }
    this.counters.gaveUp += 1;
    return ask();
  }

  /** The owner's answer from the shared cache, or `undefined` when there will be none to wait for. */
  async #await<T>(
    key: string,
    poll: () => Promise<T | undefined> | undefined,
    signal: AbortLike,
  ): Promise<T | undefined> {
    const started = performance.now();
    // The lock's time to live, read before any wait: a forged lock costs one command, not a wait.
    let lock = await this.#lock(key);
    if (lock === 'gone') return poll();
    if (lock === 'ignored') return undefined;
    const deadline = Math.min(started + this.#waitMs, performance.now() + lock);
    for (let delay = FIRST_POLL_MS; performance.now() < deadline; delay = Math.min(delay * 1.5, LONGEST_POLL_MS)) {
      try {
        await sleep(Math.ceil(Math.min(delay, deadline - performance.now())), signal, () => new Error('aborted'));
      } catch {
        return undefined;
      }
      const answer = await poll();
      if (answer !== undefined) return answer;
      // Checked after the poll: an owner that answered released the key after storing the entry.
      lock = await this.#lock(key);
      // Gone: the entry may have landed between the poll and the check.
      if (lock === 'gone') return poll();
      if (lock === 'ignored') return undefined;
    }
    return undefined;
  }

  /**
   * The lock's time to live in ms; `gone` once released or expired; `ignored`
   * when Redis fails or the lock is out of range (no expiry, longer than
   * `lookupWaitMs`: not a lock any replica sets), counted as a Redis failure.
   */
  async #lock(key: string): Promise<number | 'gone' | 'ignored'> {
    const ttl = await this.#link.command(['PTTL', key]);
    if (ttl === UNAVAILABLE) return 'ignored';
    if (ttl === -2 || ttl === 0) return 'gone';
    if (typeof ttl === 'number' && Number.isSafeInteger(ttl) && ttl >= 1 && ttl <= this.#waitMs) return ttl;
    this.#link.outOfRange('LOCK_OUT_OF_RANGE');
    return 'ignored';
  }
}
