import { positiveMs } from '../../config/numbers.js';
import { ConfigurationError } from '../../errors/configuration-error.js';
import type { NormalizedHash } from '../../hashing/hash-algorithm.js';
import type { Observers } from '../../observe/observers.js';
import { createDigest, toBase64Url } from '../../util/crypto.js';
import type { InterpretContext } from '../interpret-response.js';
import type { ScanResult } from '../scan-result.js';
import { BoundedStore, DEFAULT_STORE_TIMEOUT_MS } from './bounded-store.js';
import { digestAliases } from './digest-aliases.js';
import { ScanCache, type ScanCacheOptions } from './scan-cache.js';
import { cacheSecret, openEntry, sealEntry } from './sealed-entry.js';

/**
 * Cache counters of `HashScanClient.stats()`.
 *
 * @example
 * ```ts
 * const { memoryHits, sharedHits, misses } = client.stats().cache
 * ```
 */
export interface CacheStats {
  /** Lookups answered by the in-process cache. */
  readonly memoryHits: number;
  /** Lookups answered by the shared store (sealed entries that passed every check). */
  readonly sharedHits: number;
  /** Lookups neither level answered, so the service was asked (callers that joined one already under way are not counted). */
  readonly misses: number;
  /** Shared entries ignored as invalid: bad MAC, another source or hash, expired, not a valid answer. */
  readonly sharedRejected: number;
  /** Store calls that failed or timed out. */
  readonly storeErrors: number;
  /** Store calls skipped while the store was left alone after failures. */
  readonly storeSkipped: number;
  /** Whether the store is being left alone now (it failed; one call at a time probes it). */
  readonly storeSkipping: boolean;
  /** Times the store was left alone after failures. */
  readonly storeBackoffs: number;
  /** Entries in the in-process cache now. */
  readonly memoryEntries: number;
}

/**
 * How long a batch's read of many keys stands in for a lookup's own read of
 * the shared level: the lookups of one window start well within it, even on
 * a loaded machine; a later one reads for itself. An absence read that long
 * ago costs at most a second request for a hash another replica answered in
 * between (the claim still keeps two replicas from asking at once), never a
 * verdict the service did not give.
 */
const PREFETCH_STANDS_MS = 10_000;

/** What a batch's read of many keys found for one hash, and until when that stands (`performance.now()`). */
interface Prefetched {
  readonly until: number;
  /** A checked entry, now in the in-process level (its lookup counts as a shared hit). */
  readonly hit: boolean;
}

/** The key of `hash` in the shared store; the source id is hashed in (short, and no URL in the store's key space). */
export function sharedCacheKey(sourceId: string, hash: string): string {
  return `hashscan-sms:v1:${toBase64Url(createDigest('sha256').update(sourceId).bytes()).slice(0, 16)}:${hash}`;
}

/** The counters of a client without a cache. */
export const NO_CACHE_STATS: CacheStats = Object.freeze({
  memoryHits: 0,
  sharedHits: 0,
  misses: 0,
  sharedRejected: 0,
  storeErrors: 0,
  storeSkipped: 0,
  storeSkipping: false,
  storeBackoffs: 0,
  memoryEntries: 0,
});

/** What the verdict cache needs of its client. */
export interface VerdictCacheContext extends Omit<InterpretContext, 'query'> {
  readonly sourceId: string;
  /** The fixed API key the default `cache.secret` derives from; `undefined` when it comes from a provider. */
  readonly apiKey: string | undefined;
  readonly observers: Observers;
}

/**
 * The two cache levels of `HashScanClient`: the in-process LRU first, then
 * (when `cache.store` is set) the shared store. Answers are written to both
 * with the same lifetimes, digest aliases included; what comes back from the
 * store is authenticated and validated (see `sealed-entry.ts`) and never
 * makes a lookup fail or hang (see `bounded-store.ts`).
 */
export class VerdictCache {
  readonly #memory: ScanCache;
  readonly #store: BoundedStore | undefined;
  readonly #context: VerdictCacheContext;
  readonly #secret: Uint8Array | undefined;
  readonly #keyPrefix: string;
  #memoryHits = 0;
  #sharedHits = 0;
  #misses = 0;
  #rejected = 0;
  /** What {@link VerdictCache.prefetch} read, per hash, until its lookup comes. */
  readonly #prefetched = new Map<string, Prefetched>();

  constructor(options: ScanCacheOptions, context: VerdictCacheContext) {
    this.#memory = new ScanCache(options);
    this.#context = context;
    const { store } = options;
    if (store !== undefined) {
      if (
        typeof store !== 'object' ||
        store === null ||
        typeof store.get !== 'function' ||
        typeof store.set !== 'function'
      ) {
        throw new ConfigurationError('cache.store', 'must be a Keyv-compatible store (async get, set and delete)');
      }
      this.#store = new BoundedStore(store, {
        timeoutMs: positiveMs(options.storeTimeoutMs, 'cache.storeTimeoutMs', DEFAULT_STORE_TIMEOUT_MS),
        observers: context.observers,
        name: 'hashscan',
      });
      if (options.secret === undefined && context.apiKey === undefined) {
        throw new ConfigurationError(
          'cache.secret',
          'is required with cache.store when apiKey is a provider: a secret derived from rotating keys could not be shared',
        );
      }
      this.#secret = cacheSecret(options.secret, context.apiKey ?? '', context.sourceId);
    } else if (options.secret !== undefined || options.storeTimeoutMs !== undefined) {
      throw new ConfigurationError('cache.store', 'is required by cache.secret and cache.storeTimeoutMs');
    }
    this.#keyPrefix = sharedCacheKey(context.sourceId, '');
  }

  /** Whether answers are shared with other replicas (a shared store is set). */
  get shared(): boolean {
    return this.#store !== undefined;
  }

  /** Whether the shared store reads many keys in one call (see {@link VerdictCache.prefetch}). */
  get readsMany(): boolean {
    return this.#store?.readsMany === true;
  }

  /** Entries in the in-process level. */
  get size(): number {
    return this.#memory.size;
  }

  /** The effective settings, defaults applied (for `toJSON()` and `inspect`; never the secret). */
  get settings(): Record<string, unknown> {
    return {
      ...this.#memory.settings,
      ...(this.#store !== undefined && { store: 'shared', storeTimeoutMs: this.#store.timeoutMs }),
    };
  }

  /** The in-process level only: synchronous, for the hot path. */
  get(hash: string): ScanResult | undefined {
    const result = this.#memory.get(hash);
    if (result === undefined) return undefined;
    if (this.#prefetched.size > 0 && this.#prefetched.get(hash)?.hit === true) {
      this.#prefetched.delete(hash);
      this.#sharedHits += 1;
    } else {
      this.#memoryHits += 1;
    }
    return result;
  }

  /**
   * Reads the shared level for a batch's window of hashes in one store call,
   * when the store has one (the fleet's Redis: `MGET`). Each entry gets every
   * check `recall` gives it; those that pass go to the in-process level.
   * A hash found absent (or whose entry was refused) is remembered for a
   * moment, so that its lookup sends no read of its own. Resolves the
   * queries the shared level did not answer (the ones to claim), or
   * `undefined` when the store cannot read many or failed: then each lookup
   * reads for itself, as without this call.
   */
  async prefetch(queries: readonly NormalizedHash[]): Promise<NormalizedHash[] | undefined> {
    const store = this.#store;
    const secret = this.#secret;
    if (store === undefined || secret === undefined || !store.readsMany) return undefined;
    const started = performance.now();
    for (const [hash, read] of this.#prefetched) if (read.until <= started) this.#prefetched.delete(hash);
    const todo = queries.filter(
      (query) => !this.#prefetched.has(query.hash) && this.#memory.get(query.hash) === undefined,
    );
    if (todo.length === 0) return [];
    const values = await store.getMany(todo.map((query) => this.#keyPrefix + query.hash));
    if (values === undefined) return undefined;
    const now = Date.now();
    const until = started + PREFETCH_STANDS_MS;
    const missing: NormalizedHash[] = [];
    todo.forEach((query, index) => {
      const stored = values[index];
      if (stored !== undefined && stored !== null) {
        const opened = openEntry(stored, query, { ...this.#context, secret, now });
        if (opened.ok) {
          this.#memory.set(opened.result, opened.remainingMs);
          this.#prefetched.set(query.hash, { until, hit: true });
          return;
        }
        this.#reject(query.hash, opened.reason);
      }
      this.#prefetched.set(query.hash, { until, hit: false });
      missing.push(query);
    });
    return missing;
  }

  /**
   * The shared level: a checked entry (kept in-process for what is left of
   * its life), or `undefined`; at once, not as a promise, without a store.
   */
  recall(query: NormalizedHash): Promise<ScanResult | undefined> | undefined {
    if (this.#store === undefined || this.#secret === undefined) {
      this.#misses += 1;
      return undefined;
    }
    const read = this.#prefetched.size > 0 ? this.#prefetched.get(query.hash) : undefined;
    if (read !== undefined) {
      this.#prefetched.delete(query.hash);
      // Read absent a moment ago by the batch's read of many keys: no second read.
      if (!read.hit && read.until > performance.now()) {
        this.#misses += 1;
        return Promise.resolve(undefined);
      }
    }
    return this.#recallShared(this.#store, this.#secret, query);
  }

  /**
   * The shared level again, for a lookup already counted as a miss (a
   * replica polling for another's answer): a hit counts, a miss does not.
   */
  poll(query: NormalizedHash): Promise<ScanResult | undefined> {
    if (this.#store === undefined || this.#secret === undefined) return Promise.resolve(undefined);
    return this.#recallShared(this.#store, this.#secret, query, false);
  }

  async #recallShared(
    store: BoundedStore,
    secret: Uint8Array,
    query: NormalizedHash,
    countMiss = true,
  ): Promise<ScanResult | undefined> {
    const stored = await store.get(this.#keyPrefix + query.hash);
    if (stored === undefined || stored === null) {
      if (countMiss) this.#misses += 1;
      return undefined;
    }
    const opened = openEntry(stored, query, { ...this.#context, secret, now: Date.now() });
    if (!opened.ok) {
      if (countMiss) this.#misses += 1;
      this.#reject(query.hash, opened.reason);
      return undefined;
    }
    this.#sharedHits += 1;
    this.#memory.set(opened.result, opened.remainingMs);
    return opened.result;
  }

  /**
   * Keeps a service answer in both levels; resolves once the store has it,
   * or gave up (bounded). Without a store (or with nothing to store) it is
   * done at once, and returns no promise.
   */
  set(result: ScanResult): Promise<void> | undefined {
    this.#memory.set(result);
    const store = this.#store;
    const secret = this.#secret;
    if (store === undefined || secret === undefined) return undefined;
    const { ttlMs, notDetectedTtlMs } = this.#memory.lifetimes;
    const ttl = result.verdict === 'not_detected' ? notDetectedTtlMs : ttlMs;
    if (ttl <= 0) return undefined;
    const expiresAt = Date.now() + ttl;
    return this.#storeShared(store, secret, result, ttl, expiresAt);
  }

  async #storeShared(
    store: BoundedStore,
    secret: Uint8Array,
    result: ScanResult,
    ttl: number,
    expiresAt: number,
  ): Promise<void> {
    await Promise.all(
      [result, ...digestAliases(result)].map((entry) =>
        store.set(this.#keyPrefix + entry.hash, sealEntry(entry, this.#context.sourceId, secret, expiresAt), ttl),
      ),
    );
  }

  /** Forgets the in-process level (the shared store is left as it is: other replicas use it). */
  clear(): void {
    this.#memory.clear();
  }

  stats(): CacheStats {
    return {
      memoryHits: this.#memoryHits,
      sharedHits: this.#sharedHits,
      misses: this.#misses,
      sharedRejected: this.#rejected,
      storeErrors: this.#store?.counters.errors ?? 0,
      storeSkipped: this.#store?.counters.skipped ?? 0,
      storeSkipping: this.#store?.skipping ?? false,
      storeBackoffs: this.#store?.counters.backoffs ?? 0,
      memoryEntries: this.#memory.size,
    };
  }

  #reject(hash: string, reason: string): void {
    this.#rejected += 1;
    const { observers } = this.#context;
    if (observers.listens('cache:rejected'))
      observers.emit({ type: 'cache:rejected', client: 'hashscan', hash, reason });
  }
}
