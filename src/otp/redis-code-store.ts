import * as z from 'zod/mini';
import { type RedisLink, UNAVAILABLE } from '../redis/redis-link.js';
import type { AttemptReply, CodeStore, RemoveReply, StartReply, StoredCode, StoreRules } from './code-store.js';

/*
 * The codes in the fleet's Redis, one hash per phone (the key carries a keyed
 * hash of the phone, never the number): `id`, `h` (the code's HMAC), `sent`,
 * `exp`, `a` (attempts). Each step is one script, so replicas share one count
 * of attempts: HINCRBY counts and reads in the same step, and a code checked
 * valid is removed only by the script that finds its id still there (one
 * winner). What a script reads back is a hint from whoever can write Redis:
 * a record out of range (a time to live past `keepMs`, a validity past
 * `ttlMs`, a malformed field, an attempt count below one this replica saw)
 * is a Redis failure and reads as no record: never as a valid code.
 */

const START = `
local now = tonumber(ARGV[1])
if redis.call('TYPE', KEYS[1]).ok == 'hash' then
  local sent = tonumber(redis.call('HGET', KEYS[1], 'sent') or '')
  if sent and sent <= now and now - sent < tonumber(ARGV[2]) then return now - sent end
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'id', ARGV[3], 'h', ARGV[4], 'sent', ARGV[1], 'exp', ARGV[5], 'a', '0')
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return -1
`;

const ATTEMPT = `
local t = redis.call('TYPE', KEYS[1]).ok
if t == 'none' then return {0} end
if t ~= 'hash' then return {-1} end
local a = redis.pcall('HINCRBY', KEYS[1], 'a', 1)
if type(a) ~= 'number' then return {-1} end
local f = redis.call('HMGET', KEYS[1], 'id', 'h', 'sent', 'exp')
return {1, a, f[1] or '', f[2] or '', f[3] or '', f[4] or '', redis.call('PTTL', KEYS[1])}
`;

const REMOVE = `
if redis.call('TYPE', KEYS[1]).ok ~= 'hash' then return 0 end
if redis.call('HGET', KEYS[1], 'id') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
`;

/** How far another replica's clock may be ahead of this one's when it wrote `sent`. */
const CLOCK_SKEW_MS = 60_000;
/** Records whose attempt counts this replica remembers, to see a count go backwards. */
const REMEMBERED = 10_000;

const digits = z.string().check(z.regex(/^\d{1,16}$/));
const counted = z.tuple([
  z.literal(1),
  z.number().check(z.int(), z.minimum(1)),
  z.string().check(z.regex(/^[0-9a-f]{32}$/)),
  z.string().check(z.regex(/^[0-9a-f]{64}$/)),
  digits,
  digits,
  z.number().check(z.int()),
]);
const nothing = z.tuple([z.literal(0)]);

/** The rules of {@link RedisCodeStore}: those of every store, the validity a record may claim, and its key prefix. */
export interface RedisStoreRules extends StoreRules {
  readonly ttlMs: number;
  readonly keyPrefix: string;
}

/** The codes of every replica, in the fleet's Redis. */
export class RedisCodeStore implements CodeStore {
  readonly #link: RedisLink;
  readonly #rules: RedisStoreRules;
  /** Record id → the highest attempt count this replica read for it. */
  readonly #seen = new Map<string, number>();

  constructor(link: RedisLink, rules: RedisStoreRules) {
    this.#link = link;
    this.#rules = rules;
  }

  async start(key: string, code: StoredCode, now: number): Promise<StartReply> {
    const { cooldownMs, keepMs } = this.#rules;
    const args = [String(now), String(cooldownMs), code.id, code.hash, String(code.expiresAt), String(keepMs)];
    const reply = await this.#link.command(['EVAL', START, '1', this.#key(key), ...args]);
    if (reply === UNAVAILABLE) return { kind: 'unavailable' };
    if (reply === -1) return { kind: 'started' };
    if (typeof reply === 'number' && Number.isSafeInteger(reply) && reply >= 0 && reply < cooldownMs) {
      return { kind: 'cooling', retryAfterMs: cooldownMs - reply };
    }
    this.#link.outOfRange('OTP_OUT_OF_RANGE');
    return { kind: 'unavailable' };
  }

  async attempt(key: string, now: number): Promise<AttemptReply> {
    const reply = await this.#link.command(['EVAL', ATTEMPT, '1', this.#key(key)]);
    if (reply === UNAVAILABLE) return { kind: 'unavailable' };
    if (nothing.safeParse(reply).success) return { kind: 'none' };
    const parsed = counted.safeParse(reply);
    const read = parsed.success ? this.#inRange(parsed.data, now) : undefined;
    if (read === undefined) {
      // Never obeyed: reads as no code at all, and the link steps aside as from a failed Redis.
      this.#link.outOfRange('OTP_OUT_OF_RANGE');
      return { kind: 'none' };
    }
    return read;
  }

  async remove(key: string, id: string): Promise<RemoveReply> {
    const reply = await this.#link.command(['EVAL', REMOVE, '1', this.#key(key), id]);
    if (reply === UNAVAILABLE) return 'unavailable';
    return reply === 1 ? 'removed' : 'gone';
  }

  #key(key: string): string {
    return `${this.#rules.keyPrefix}:otp:code:${key}`;
  }

  #inRange(fields: z.infer<typeof counted>, now: number): AttemptReply | undefined {
    const [, attempts, id, hash, sentText, expText, pttl] = fields;
    const sentAt = Number(sentText);
    const expiresAt = Number(expText);
    const validity = expiresAt - sentAt;
    if (validity < 1 || validity > this.#rules.ttlMs || sentAt > now + CLOCK_SKEW_MS) return undefined;
    if (pttl < 1 || pttl > this.#rules.keepMs) return undefined;
    if (attempts <= (this.#seen.get(id) ?? 0)) return undefined;
    this.#remember(id, attempts);
    return { kind: 'counted', code: { id, hash, sentAt, expiresAt }, attempts };
  }

  #remember(id: string, attempts: number): void {
    this.#seen.delete(id);
    this.#seen.set(id, attempts);
    if (this.#seen.size > REMEMBERED) {
      const oldest = this.#seen.keys().next();
      if (oldest.done !== true) this.#seen.delete(oldest.value);
    }
  }
}
