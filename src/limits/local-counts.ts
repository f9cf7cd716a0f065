import { LRUCache } from 'lru-cache';
import type { LimitRule, LimitScope, SendLimit } from './limits-options.js';

/*
 * The limits counted in this process: the whole count without `fleet`, and
 * with it this replica's mirror of the shared count (raised by every answer
 * Redis gives, in time or late) plus the sends it admitted on its own.
 */

/** Points one send wants from one counter. */
export interface Want {
  readonly rule: LimitRule;
  readonly key: string;
  readonly points: number;
}

/** A send the limits refused: which limit, and when it may go. */
export interface LimitRefusal {
  readonly scope: LimitScope;
  readonly limit: SendLimit;
  readonly max: number;
  readonly retryAfterMs: number;
}

interface Entry {
  count: number;
  expiresAt: number;
}

/** Counters kept at most; the least recently used goes first beyond it. */
const MAX_KEYS = 100_000;
const DAY_MS = 86_400_000;

/** When a refused send may go: a budget at the next UTC day, a per-recipient limit when its window ends. */
function retryAfter(rule: LimitRule, ttlMs: number, now = Date.now()): number {
  if (rule.limit === 'dailyBudget') return Math.max(1, DAY_MS - (now % DAY_MS));
  return Math.max(1, Math.min(ttlMs, rule.windowMs));
}

/** The refusal with the longest wait among the wants over their limit, if any. */
export function refusalOf(
  wants: readonly Want[],
  counts: readonly number[],
  ttls: readonly number[],
): LimitRefusal | undefined {
  let refusal: LimitRefusal | undefined;
  wants.forEach((want, index) => {
    if ((counts[index] ?? 0) + want.points <= want.rule.max) return;
    const wait = retryAfter(want.rule, ttls[index] ?? want.rule.windowMs);
    if (refusal === undefined || wait > refusal.retryAfterMs) {
      refusal = { scope: want.rule.scope, limit: want.rule.limit, max: want.rule.max, retryAfterMs: wait };
    }
  });
  return refusal;
}

/** In-process counters in fixed windows that start with their first point. */
export class LocalCounts {
  readonly #entries = new LRUCache<string, Entry>({ max: MAX_KEYS });

  #entry(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined || entry.expiresAt <= Date.now()) return undefined;
    return entry;
  }

  /** Takes every want, or none and says which limit refused. */
  take(wants: readonly Want[]): LimitRefusal | undefined {
    const now = Date.now();
    const entries = wants.map((want) => this.#entry(want.key));
    const refusal = refusalOf(
      wants,
      entries.map((entry) => entry?.count ?? 0),
      entries.map((entry) => (entry === undefined ? 0 : entry.expiresAt - now)),
    );
    if (refusal !== undefined) return refusal;
    wants.forEach((want, index) => {
      const entry = entries[index];
      if (entry === undefined) this.#entries.set(want.key, { count: want.points, expiresAt: now + want.rule.windowMs });
      else entry.count += want.points;
    });
    return undefined;
  }

  /** What Redis said a counter holds: never lowers this replica's count, only raises it. */
  raise(key: string, count: number, ttlMs: number): void {
    const entry = this.#entry(key);
    if (entry !== undefined && entry.count >= count) return;
    if (count <= 0 || ttlMs <= 0) return;
    this.#entries.set(key, { count, expiresAt: Date.now() + ttlMs });
  }

  /** Hands points back (a send that surely went nowhere). */
  giveBack(wants: readonly Want[]): void {
    for (const want of wants) {
      const entry = this.#entry(want.key);
      if (entry !== undefined) entry.count = Math.max(0, entry.count - want.points);
    }
  }
}
