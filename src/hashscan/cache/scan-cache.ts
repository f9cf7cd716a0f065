import { LRUCache } from 'lru-cache';
import { positiveMs } from '../../config/numbers.js';
import { ConfigurationError } from '../../errors/configuration-error.js';
import type { ScanResult } from '../scan-result.js';
import type { SharedCacheOptions } from './bounded-store.js';
import { digestAliases } from './digest-aliases.js';

/**
 * Result cache settings. Only trustworthy answers (`malicious`,
 * `not_detected`) are cached, never errors. Entries are keyed by data-source
 * id + hash, as the spec recommends. With a `store`, a shared second level
 * (Redis through Keyv, say) sits behind the in-process one.
 *
 * @example
 * ```ts
 * { cache: { ttlMs: 60_000, notDetectedTtlMs: 10_000 } }
 * { cache: { store: new Keyv({ store: new KeyvRedis(process.env.REDIS_URL) }), secret: process.env.HASHSCAN_CACHE_SECRET } }
 * { cache: false } // every scan asks the service
 * ```
 */
export interface ScanCacheOptions extends SharedCacheOptions {
  /** Most entries kept (least recently used go first). @defaultValue 10000 */
  readonly max?: number | undefined;
  /** Lifetime of a `malicious` result, in ms. @defaultValue 300000 (5 min) */
  readonly ttlMs?: number | undefined;
  /**
   * Lifetime of a `not_detected` result, in ms; shorter, because a file not
   * flagged now may be flagged soon. `0` does not cache them at all.
   * @defaultValue 60000 (1 min)
   */
  readonly notDetectedTtlMs?: number | undefined;
}

const DEFAULTS = { max: 10_000, ttlMs: 300_000, notDetectedTtlMs: 60_000 } as const;

/** Lifetimes of the two verdicts (both cache levels use them). */
export interface CacheLifetimes {
  readonly ttlMs: number;
  /** `0`: `not_detected` answers are not cached. */
  readonly notDetectedTtlMs: number;
}

/**
 * LRU cache of verdicts by hash, for one client (so one data source: the
 * spec's source id + hash key matters to the shared level, which other
 * clients read). A hit whose `data` holds the file's other digests also
 * answers later lookups by those digests. Keyed by the hash string itself,
 * the one the in-flight map is keyed by: no key is built per lookup.
 */
export class ScanCache {
  readonly #lru: LRUCache<string, ScanResult>;
  readonly #notDetectedTtlMs: number;
  /** The lifetimes in force, for the shared level. */
  readonly lifetimes: CacheLifetimes;

  constructor(options: ScanCacheOptions) {
    const max = options.max ?? DEFAULTS.max;
    if (!Number.isSafeInteger(max) || max < 1) throw new ConfigurationError('cache.max', 'must be a whole number >= 1');
    const notDetectedTtlMs = options.notDetectedTtlMs ?? DEFAULTS.notDetectedTtlMs;
    if (notDetectedTtlMs !== 0) positiveMs(notDetectedTtlMs, 'cache.notDetectedTtlMs', 0);
    this.#notDetectedTtlMs = notDetectedTtlMs;
    const ttlMs = positiveMs(options.ttlMs, 'cache.ttlMs', DEFAULTS.ttlMs);
    this.lifetimes = { ttlMs, notDetectedTtlMs };
    this.#lru = new LRUCache<string, ScanResult>({
      max,
      ttl: ttlMs,
      // Read the clock through the global on each call, so fake timers in tests apply.
      perf: { now: () => performance.now() },
    });
  }

  get size(): number {
    return this.#lru.size;
  }

  /** The effective settings, defaults applied (for `toJSON()` and `inspect`). */
  get settings(): { readonly max: number; readonly ttlMs: number; readonly notDetectedTtlMs: number } {
    return { max: this.#lru.max, ttlMs: this.#lru.ttl, notDetectedTtlMs: this.#notDetectedTtlMs };
  }

  get(hash: string): ScanResult | undefined {
    return this.#lru.get(hash);
  }

  /** Keeps `result` (and its digest aliases) for its verdict's lifetime, or `ttlMs` when shorter (an entry from the shared level). */
  set(result: ScanResult, ttlMs?: number): void {
    const lifetime = result.verdict === 'not_detected' ? this.#notDetectedTtlMs : this.lifetimes.ttlMs;
    const ttl = Math.min(lifetime, ttlMs ?? lifetime);
    if (ttl <= 0) return;
    this.#lru.set(result.hash, result, { ttl });
    for (const alias of digestAliases(result)) this.#lru.set(alias.hash, alias, { ttl });
  }

  clear(): void {
    this.#lru.clear();
  }
}
