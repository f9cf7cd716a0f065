import { type RedisLink, UNAVAILABLE } from '../redis/redis-link.js';
import type { AbortLike } from '../util/abort-like.js';
import { onAbort } from '../util/abort-subscriptions.js';
import type { Want } from './local-counts.js';

/*
 * The limits' counters in the fleet's Redis. One Lua script both checks
 * every counter of a send and takes from all of them, or from none, and
 * marks the send's token: the same take run twice (a late reply, a replay
 * after an outage) counts once, and a refund by token gives back only what
 * that token took. The script reads every counter before it writes: a value
 * out of range (not a whole number, below zero, of another type, no expiry
 * or one beyond the window) is reported, never obeyed and never written
 * over. A whole count above the limit with an expiry within the window is
 * what a lowered limit leaves behind: it reads as "at the limit".
 */

const TAKE = `
local n = #KEYS - 1
local counts, ttls = {}, {}
for i = 1, n do
  local max = tonumber(ARGV[3 * i])
  local window = tonumber(ARGV[3 * i + 1])
  local raw = redis.pcall('GET', KEYS[i])
  if type(raw) == 'table' then return {-1, i} end
  local ttl = redis.call('PTTL', KEYS[i])
  local count = 0
  if raw then
    count = tonumber(raw)
    if count == nil or count ~= math.floor(count) or count < 0 or ttl < 1 or ttl > window then
      return {-1, i}
    end
    if count > max then count = max end
  else
    ttl = 0
  end
  counts[i] = count
  ttls[i] = ttl
end
local status = 1
if redis.call('EXISTS', KEYS[n + 1]) == 1 then
  status = 2
elseif ARGV[1] == 'take' then
  for i = 1, n do
    if counts[i] + tonumber(ARGV[3 * i + 2]) > tonumber(ARGV[3 * i]) then status = 0 end
  end
end
if status == 1 then
  for i = 1, n do
    local after = math.min(counts[i] + tonumber(ARGV[3 * i + 2]), tonumber(ARGV[3 * i]))
    if after > counts[i] then
      if ttls[i] == 0 then
        redis.call('SET', KEYS[i], after, 'PX', ARGV[3 * i + 1])
        ttls[i] = tonumber(ARGV[3 * i + 1])
      else
        redis.call('INCRBY', KEYS[i], after - counts[i])
      end
      counts[i] = after
    end
  end
  redis.call('SET', KEYS[n + 1], '1', 'PX', ARGV[2])
end
local out = {status}
for i = 1, n do out[#out + 1] = counts[i] end
for i = 1, n do out[#out + 1] = ttls[i] end
return out
`;

const GIVE_BACK = `
local n = #KEYS - 1
if redis.call('DEL', KEYS[n + 1]) == 0 then return 0 end
for i = 1, n do
  local count = tonumber(redis.call('GET', KEYS[i]) or '')
  if count and count == math.floor(count) then
    if count - tonumber(ARGV[i]) <= 0 then
      redis.call('DEL', KEYS[i])
    else
      redis.call('DECRBY', KEYS[i], ARGV[i])
    end
  end
end
return 1
`;

/** How long a send's token lives: a late reply, a refund or a replay within it counts once. */
const TOKEN_MS = 15 * 60_000;

/** What Redis answered to a take: `taken` (now, or already by the same token), `refused`, or a value out of range (reported to the link). */
export type TakeReply =
  | { readonly kind: 'taken' | 'refused'; readonly counts: readonly number[]; readonly ttls: readonly number[] }
  | { readonly kind: 'invalid' };

/** A Redis call's fate: its checked reply; not made at all; or made with no reply in time (it may still run). */
export type Attempt<T> =
  | { readonly state: 'answered'; readonly value: T }
  | { readonly state: 'skipped' }
  | { readonly state: 'in-doubt'; readonly late: Promise<T> };

/** The caller's bound on one call, besides `fleet.timeoutMs`: what is left of its budget, its signal. */
export interface CallBound {
  /** Ms left of the call's budget; `undefined` when it has none. */
  readonly remainingMs: number | undefined;
  readonly signal: AbortLike | undefined;
}

/** `take` checks the limits; `record` adds a send already made (up to each limit) without refusing it. */
export type TakeMode = 'take' | 'record';

/** The limits' side of the fleet's Redis. */
export class SharedCounts {
  readonly #link: RedisLink;
  readonly #keyPrefix: string;

  constructor(link: RedisLink, keyPrefix: string) {
    this.#link = link;
    this.#keyPrefix = keyPrefix;
  }

  /** Replies out of range (a forged counter, a reply no script could make), each a Redis failure. */
  outOfRange = 0;

  /** Whether the link is stepping aside after failures (a call now would be skipped). */
  get down(): boolean {
    return this.#link.down;
  }

  /** A take bounded by `fleet.timeoutMs` and, when given, by the caller's `bound`: one that loses either race is in doubt. */
  take(wants: readonly Want[], token: string, mode: TakeMode, bound?: CallBound): Promise<Attempt<TakeReply>> {
    const args = wants.flatMap((want) => [String(want.rule.max), String(want.rule.windowMs), String(want.points)]);
    return this.#call(
      [
        'EVAL',
        TAKE,
        String(wants.length + 1),
        ...wants.map((w) => w.key),
        this.#token(token),
        mode,
        String(TOKEN_MS),
        ...args,
      ],
      (reply) => {
        const checked = takeReply(reply, wants);
        if (checked.kind === 'invalid') {
          // Never obeyed: a failure of Redis, stepped aside from as from a dead one (only the limits' link).
          this.outOfRange += 1;
          this.#link.outOfRange('LIMIT_OUT_OF_RANGE');
        }
        return checked;
      },
      bound,
    );
  }

  /** Gives back what `token` took, if it took anything (`true` when it had). */
  giveBack(wants: readonly Want[], token: string): Promise<Attempt<boolean>> {
    const keys = [...wants.map((w) => w.key), this.#token(token)];
    return this.#call(
      ['EVAL', GIVE_BACK, String(keys.length), ...keys, ...wants.map((w) => String(w.points))],
      (r) => r === 1,
    );
  }

  #token(token: string): string {
    return `${this.#keyPrefix}:token:${token}`;
  }

  async #call<T>(args: readonly string[], read: (reply: unknown) => T, bound?: CallBound): Promise<Attempt<T>> {
    let sent: Promise<unknown> | undefined;
    const running = this.#link.run(() => {
      sent = this.#link.raw(args);
      return sent;
    });
    const reply = bound === undefined ? await running : await within(running, bound);
    if (reply !== UNAVAILABLE && reply !== CUT) return { state: 'answered', value: read(reply) };
    if (sent === undefined) return { state: 'skipped' };
    return { state: 'in-doubt', late: sent.then(read) };
  }
}

const CUT = Symbol("past the caller's bound");

/** `running`, or {@link CUT} once the caller's budget is over or its signal aborted, whichever comes first. */
function within<T>(running: Promise<T>, { remainingMs, signal }: CallBound): Promise<T | typeof CUT> {
  if (remainingMs === undefined && signal === undefined) return running;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unsubscribe: (() => void) | undefined;
  const cut = new Promise<typeof CUT>((resolve) => {
    if (remainingMs !== undefined) timer = setTimeout(resolve, remainingMs, CUT);
    if (signal?.aborted) resolve(CUT);
    else if (signal !== undefined) unsubscribe = onAbort(signal, () => resolve(CUT));
  });
  return Promise.race([running, cut]).finally(() => {
    clearTimeout(timer);
    unsubscribe?.();
  });
}

/** The take script's reply, checked against the limits it was given. */
function takeReply(reply: unknown, wants: readonly Want[]): TakeReply {
  const n = wants.length;
  if (!Array.isArray(reply) || reply.length !== 1 + 2 * n) return { kind: 'invalid' };
  if (!reply.every((value) => typeof value === 'number' && Number.isSafeInteger(value))) return { kind: 'invalid' };
  const [status, ...rest] = reply as number[];
  const counts = rest.slice(0, n);
  const ttls = rest.slice(n);
  const inRange = wants.every((want, index) => {
    const count = counts[index] as number;
    const ttl = ttls[index] as number;
    return count >= 0 && count <= want.rule.max && ttl >= 0 && ttl <= want.rule.windowMs && (ttl > 0 || count === 0);
  });
  if (!inRange || (status !== 0 && status !== 1 && status !== 2)) return { kind: 'invalid' };
  return { kind: status === 0 ? 'refused' : 'taken', counts, ttls };
}

/** The reply of an attempt, in time or late; `undefined` when none came. */
export function settled<T>(attempt: Promise<Attempt<T>>): Promise<T | undefined> {
  return attempt.then((outcome) => {
    if (outcome.state === 'answered') return outcome.value;
    if (outcome.state === 'skipped') return undefined;
    return outcome.late.catch(() => undefined);
  });
}
