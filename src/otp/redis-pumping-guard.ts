import * as z from 'zod/mini';
import { type RedisLink, UNAVAILABLE } from '../redis/redis-link.js';
import type { Admission, GuardRules, MemoryPumpingGuard, PumpingGuard } from './pumping-guard.js';

/*
 * The pumping guard shared by the replicas: per prefix, a hash of sends (`s`)
 * and verified codes (`v`) living one window, and a suspension key living
 * `suspendMs`. One script decides and counts (the rule of `looksPumped`,
 * written again in Lua). What it reads is a hint: a suspension or a window
 * without expiry or past its cap, a count that is not a whole number at or
 * above zero, is a Redis failure, never obeyed; meanwhile this replica guards
 * on its own (the in-memory guard), as without `fleet`.
 */

const ADMIT = `
local window, suspend = tonumber(ARGV[1]), tonumber(ARGV[2])
local ts = redis.call('TYPE', KEYS[2]).ok
if ts ~= 'none' then
  local p = redis.call('PTTL', KEYS[2])
  if ts ~= 'string' or p < 1 or p > suspend then return {-1} end
  return {0, p}
end
local t = redis.call('TYPE', KEYS[1]).ok
local s, v = 0, 0
if t == 'hash' then
  s = tonumber(redis.call('HGET', KEYS[1], 's') or '')
  v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
  local p = redis.call('PTTL', KEYS[1])
  if s == nil or v == nil or s < 0 or v < 0 or s ~= math.floor(s) or v ~= math.floor(v) or p < 1 or p > window then
    return {-1}
  end
elseif t ~= 'none' then
  return {-1}
end
if s - math.min(v, s) >= tonumber(ARGV[3]) and v < s * tonumber(ARGV[4]) then
  redis.call('SET', KEYS[2], '1', 'PX', suspend)
  return {0, suspend}
end
redis.call('HINCRBY', KEYS[1], 's', 1)
if t == 'none' then redis.call('PEXPIRE', KEYS[1], window) end
return {1}
`;

const ADJUST = `
if redis.call('TYPE', KEYS[1]).ok ~= 'hash' then return 0 end
local p = redis.call('PTTL', KEYS[1])
local c = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if p < 1 or p > tonumber(ARGV[3]) or c == nil then return -1 end
if c + tonumber(ARGV[2]) < 0 then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
return 1
`;

const admitted = z.tuple([z.literal(1)]);
const suspended = z.tuple([z.literal(0), z.number().check(z.int(), z.minimum(1))]);

/** The guard of every replica, in the fleet's Redis; `local` stands in while Redis cannot be trusted or reached. */
export class RedisPumpingGuard implements PumpingGuard {
  readonly #link: RedisLink;
  readonly #rules: GuardRules;
  readonly #keyPrefix: string;
  readonly #local: MemoryPumpingGuard;

  constructor(link: RedisLink, rules: GuardRules, keyPrefix: string, local: MemoryPumpingGuard) {
    this.#link = link;
    this.#rules = rules;
    this.#keyPrefix = keyPrefix;
    this.#local = local;
  }

  async admit(prefix: string, now: number): Promise<Admission> {
    const { windowMs, suspendMs, maxUnverified, minConversionRate } = this.#rules;
    const keys = [this.#key(prefix), `${this.#key(prefix)}:suspended`];
    const args = [String(windowMs), String(suspendMs), String(maxUnverified), String(minConversionRate)];
    const reply = await this.#link.command(['EVAL', ADMIT, '2', ...keys, ...args]);
    if (reply === UNAVAILABLE) return this.#local.admit(prefix, now);
    if (admitted.safeParse(reply).success) return { kind: 'admitted' };
    const refusal = suspended.safeParse(reply);
    if (refusal.success && refusal.data[1] <= suspendMs) return { kind: 'suspended', retryAfterMs: refusal.data[1] };
    this.#link.outOfRange('GUARD_OUT_OF_RANGE');
    return this.#local.admit(prefix, now);
  }

  giveBack(prefix: string, now: number): Promise<void> {
    return this.#adjust(prefix, 's', -1, () => this.#local.giveBack(prefix, now));
  }

  verified(prefix: string, now: number): Promise<void> {
    return this.#adjust(prefix, 'v', 1, () => this.#local.verified(prefix, now));
  }

  async #adjust(prefix: string, field: 's' | 'v', by: number, locally: () => Promise<void>): Promise<void> {
    const args = [field, String(by), String(this.#rules.windowMs)];
    const reply = await this.#link.command(['EVAL', ADJUST, '1', this.#key(prefix), ...args]);
    if (reply === UNAVAILABLE) return locally();
    if (reply === -1) this.#link.outOfRange('GUARD_OUT_OF_RANGE');
    if (reply !== 0 && reply !== 1) return locally();
  }

  #key(prefix: string): string {
    return `${this.#keyPrefix}:otp:guard:${prefix}`;
  }
}
