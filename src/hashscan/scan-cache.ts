import { LRUCache } from 'lru-cache';
import { ConfigurationError } from '../errors/configuration-error.js';
import { positiveMs } from '../transport/client-options.js';
import { algorithmOf } from './hash-algorithm.js';
import type { ScanResult } from './scan-result.js';

/**
 * Result cache settings. Only trustworthy answers (`malicious`,
 * `not_detected`) are cached, never errors. Entries are keyed by data-source
 * id + hash, as the spec recommends.
 *
 * @example
 * ```ts
 * { cache: { ttlMs: 60_000, notDetectedTtlMs: 10_000 } }
 * { cache: false } // every scan asks the service
 * ```
 */
export interface ScanCacheOptions {
  /** Most entries kept (least recently used go first). @defaultValue 10000 */
  readonly max?: number;
  /** Lifetime of a `malicious` result, in ms. @defaultValue 300000 (5 min) */
  readonly ttlMs?: number;
  /**
   * Lifetime of a `not_detected` result, in ms; shorter, because a file not
   * flagged now may be flagged soon. `0` does not cache them at all.
   * @defaultValue 60000 (1 min)
   */
  readonly notDetectedTtlMs?: number;
}

const DEFAULTS = { max: 10_000, ttlMs: 300_000, notDetectedTtlMs: 60_000 } as const;

/**
 * LRU cache of verdicts under `sourceId` + hash. A hit whose `data` holds
 * the file's other digests also answers later lookups by those digests.
 */
export class ScanCache {
  readonly #lru: LRUCache<string, ScanResult>;
  readonly #sourceId: string;
  readonly #notDetectedTtlMs: number;

  constructor(options: ScanCacheOptions, sourceId: string) {
    const max = options.max ?? DEFAULTS.max;
    if (!Number.isSafeInteger(max) || max < 1) throw new ConfigurationError('cache.max', 'must be a whole number >= 1');
    const notDetectedTtlMs = options.notDetectedTtlMs ?? DEFAULTS.notDetectedTtlMs;
    if (notDetectedTtlMs !== 0) positiveMs(notDetectedTtlMs, 'cache.notDetectedTtlMs', 0);
    this.#notDetectedTtlMs = notDetectedTtlMs;
    this.#sourceId = sourceId;
    this.#lru = new LRUCache<string, ScanResult>({
      max,
      ttl: positiveMs(options.ttlMs, 'cache.ttlMs', DEFAULTS.ttlMs),
      // Read the clock through the global on each call, so fake timers in tests apply.
      perf: { now: () => performance.now() },
    });
  }

  get size(): number {
    return this.#lru.size;
  }

  /** The effective settings, defaults applied (for `toJSON()` and `inspect`). */
  get settings(): Required<ScanCacheOptions> {
    return { max: this.#lru.max, ttlMs: this.#lru.ttl, notDetectedTtlMs: this.#notDetectedTtlMs };
  }

  #key(hash: string): string {
    return `${this.#sourceId}\n${hash}`;
  }

  get(hash: string): ScanResult | undefined {
    return this.#lru.get(this.#key(hash));
  }

  set(result: ScanResult): void {
    if (result.verdict === 'not_detected') {
      if (this.#notDetectedTtlMs > 0) this.#lru.set(this.#key(result.hash), result, { ttl: this.#notDetectedTtlMs });
      return;
    }
    this.#lru.set(this.#key(result.hash), result);
    // Alias only when the service's own digest of the queried algorithm matches the query:
    // otherwise `data` may describe another file, and caching it would poison other lookups.
    const data = result.data;
    if (data === undefined || data[result.algorithm] !== result.hash) return;
    for (const alias of [data.md5, data.sha1, data.sha256]) {
      const algorithm = alias === undefined ? undefined : algorithmOf(alias);
      if (alias === undefined || algorithm === undefined || alias === result.hash) continue;
      this.#lru.set(this.#key(alias), Object.freeze({ ...result, hash: alias, algorithm }));
    }
  }

  clear(): void {
    this.#lru.clear();
  }
}
