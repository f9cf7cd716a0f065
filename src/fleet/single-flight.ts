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
/** Claims every key not held (`SET NX PX`, one token): 1 where claimed, 0 where another holds it. */
const CLAIM_MANY_SCRIPT =
  "local r = {} for i, k in ipairs(KEYS) do r[i] = redis.call('SET', k, ARGV[1], 'PX', ARGV[2], 'NX') and 1 or 0 end return r";
/** Deletes each key that still holds the token (ARGV[1]): the release of a window's claims, many at once. */
const RELEASE_MANY_SCRIPT =
  "local n = 0 for _, k in ipairs(KEYS) do if redis.call('GET', k) == ARGV[1] then n = n + redis.call('DEL', k) end end return n";
/** Releases of a window's claims wait this long to go out together. */
const RELEASE_BATCH_MS = 5;
/** A window's claims are used while this much of the lock's life is left: an ask starts well before it expires. */
const CLAIM_MARGIN = 0.5;
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
  /**
   * Claims taken ahead for a batch's window ({@link FleetLookups.claimAhead}):
   * the token, until when it is used, and whether Redis said so (`false`: the
   * script failed or timed out, so it may have run: released all the same).
   */
  readonly #ahead = new Map<string, { readonly token: string; readonly until: number; readonly sure: boolean }>();
  /** Keys of claims taken ahead to release, by token, sent together {@link RELEASE_BATCH_MS} after the first. */
  readonly #releases = new Map<string, string[]>();
  #releasing: ReturnType<typeof setTimeout> | undefined;

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
    const ahead = this.#ahead.get(hash);
    if (ahead !== undefined) {
      this.#ahead.delete(hash);
      if (ahead.until > performance.now()) {
        return this.#owned(key, ahead.token, ahead.sure ? 'OK' : UNAVAILABLE, ask, true);
      }
      // Too late to rely on: let go first, so that the claim below does not wait for this replica's own lock.
      this.#release(key, ahead.token);
    }
    const token = randomUUID();
    let sent = false;
    const claimed = await this.#link.run(() => {
      sent = true;
      return this.#link.raw(['SET', key, token, 'PX', String(this.#waitMs), 'NX']);
    });
    if (claimed === UNAVAILABLE && !sent) return ask();
    if (claimed === 'OK' || claimed === UNAVAILABLE) return this.#owned(key, token, claimed, ask);
    const answer = await this.#await(key, poll, signal);
    if (answer !== undefined) {
      this.counters.joined += 1;
      return answer;
    }
    this.counters.gaveUp += 1;
    return ask();
  }

  /**
   * Claims the keys of `hashes` (a batch's window, none of them in the shared
   * cache) in one script, for the `run()` of each that follows soon: that
   * `run()` sends no `SET NX PX` of its own. A claim held by another replica
   * is left to `run()` (it waits for that owner's answer); a claim not used
   * while at least half of the lock's life is left is claimed again by
   * `run()` as usual. Never throws.
   */
  async claimAhead(hashes: readonly string[]): Promise<void> {
    if (hashes.length === 0) return;
    const now = performance.now();
    for (const [hash, ahead] of this.#ahead) {
      if (ahead.until > now) continue;
      this.#ahead.delete(hash);
      this.#release(this.#keyPrefix + hash, ahead.token);
    }
    const token = randomUUID();
    let sent = false;
    const keys = hashes.map((hash) => this.#keyPrefix + hash);
    const claimed = await this.#link.run(() => {
      sent = true;
      return this.#link.raw(['EVAL', CLAIM_MANY_SCRIPT, String(keys.length), ...keys, token, String(this.#waitMs)]);
    });
    if (claimed === UNAVAILABLE && !sent) return;
    const until = now + this.#waitMs * CLAIM_MARGIN;
    if (claimed === UNAVAILABLE) {
      // It may have run: each lookup asks as a possible owner, and releases by token.
      for (const hash of hashes) this.#ahead.set(hash, { token, until, sure: false });
      return;
    }
    if (!Array.isArray(claimed) || claimed.length !== hashes.length) {
      // Not the script's reply: released, and left to each `run()`.
      for (const key of keys) this.#release(key, token);
      return;
    }
    hashes.forEach((hash, index) => {
      if (claimed[index] === 1) this.#ahead.set(hash, { token, until, sure: true });
    });
  }

  /** `ask()` as the hash's owner (or possible owner, when the claim's reply was lost); the lock released after. */
  async #owned<T>(key: string, token: string, claimed: unknown, ask: () => Promise<T>, ahead = false): Promise<T> {
    if (claimed === 'OK') this.counters.owned += 1;
    try {
      return await ask();
    } finally {
      if (ahead) this.#releaseSoon(key, token);
      else this.#release(key, token);
    }
  }

  /**
   * A claim taken ahead, released with the others of its window that end
   * within {@link RELEASE_BATCH_MS}: one script for many keys. Its answer
   * is in the shared cache already, where waiting replicas look first.
   */
  #releaseSoon(key: string, token: string): void {
    const keys = this.#releases.get(token);
    if (keys === undefined) this.#releases.set(token, [key]);
    else keys.push(key);
    this.#releasing ??= setTimeout(() => {
      this.#releasing = undefined;
      for (const [each, batch] of this.#releases) {
        void this.#link.run(
          () => this.#link.raw(['EVAL', RELEASE_MANY_SCRIPT, String(batch.length), ...batch, each]),
          true,
        );
      }
      this.#releases.clear();
    }, RELEASE_BATCH_MS);
  }

  /**
   * A claim that failed or timed out may still have taken the lock: released by token all the same,
   * even while the link steps aside after that failure, so other replicas do not wait `lookupWaitMs`.
   */
  #release(key: string, token: string): void {
    void this.#link.run(() => this.#link.raw(['EVAL', RELEASE_SCRIPT, '1', key, token]), true);
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
