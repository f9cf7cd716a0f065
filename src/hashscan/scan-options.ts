import type { HashScanFleetOptions } from '../fleet-plugin/fleet-options.js';
import type { FleetPlugin } from '../fleet-plugin/fleet-plugin.js';
import type { FleetStats } from '../fleet-plugin/fleet-stats.js';
import type { TransportStats } from '../transport/resilience/resilience.js';
import type { CommonClientOptions } from '../transport/settings/client-options.js';
import type { ApiKeyProvider } from './api-key.js';
import type { ScanCacheOptions } from './cache/scan-cache.js';
import type { CacheStats } from './cache/verdict-cache.js';

/*
 * The options and stats types of HashScanClient, apart from the class so that
 * the client file stays a short hub.
 */

/**
 * Options of {@link HashScanClient}.
 *
 * @example
 * ```ts
 * const client = new HashScanClient({
 *   apiKey: process.env.HASHSCAN_API_KEY,
 *   baseUrl: 'https://hashscan.example.com',
 *   cache: { ttlMs: 60_000 },
 * })
 * ```
 */
export interface HashScanClientOptions extends CommonClientOptions {
  /**
   * Platform access key, sent as the `api_key` query parameter. Keep it on
   * your server; it is masked in every log line and error. Or a provider
   * returning the key (or `{ apiKey, expiresAt }`), for keys that rotate:
   * see the README's "Credential providers".
   * @defaultValue `process.env.HASHSCAN_API_KEY`
   */
  readonly apiKey?: string | ApiKeyProvider | undefined;
  /** @defaultValue `process.env.HASHSCAN_BASE_URL` */
  readonly baseUrl?: string | undefined;
  /**
   * Identifier of the data source, part of every cache key so that answers
   * of different sources never mix.
   * @defaultValue the normalized base URL
   */
  readonly sourceId?: string | undefined;
  /**
   * Result cache; `false` turns it off. Add `store` for a second level shared by replicas (see the README's
   * "Operating in production").
   * @defaultValue `{ max: 10000, ttlMs: 300000, notDetectedTtlMs: 60000 }`, in-process only
   */
  readonly cache?: ScanCacheOptions | false | undefined;
  /**
   * Extra top-level fields tolerated next to the documented non-detection
   * body. By default any other field makes the response abnormal, because
   * the spec lists unknown or error fields among the conditions to handle
   * defensively. Name a field here only once you know what it means.
   * @defaultValue `[]`
   */
  readonly allowedExtraFields?: readonly string[] | undefined;
  /**
   * Coordination with the other replicas of this service through Redis: one
   * `429` pause, one `rateLimit` quota and one request per hash for the whole
   * fleet (see the README's "Running a fleet"). The fleet's Redis also serves
   * as `cache.store` unless you set one. Fails open: while Redis is down or
   * slow, each replica runs on its own. `redisFleet({ redis })` of `hashscan-sms/fleet` makes one; the plain
   * `{ redis, prefix, timeoutMs, lookupWaitMs }` form is deprecated (same behaviour).
   * @defaultValue none: each replica on its own
   * @example `fleet: redisFleet({ redis, prefix: 'scanner:prod' })`
   */
  readonly fleet?: FleetPlugin | HashScanFleetOptions | undefined;
}

/** Per-call options of {@link HashScanClient.scan}. */
export interface ScanOptions {
  /**
   * Aborts this caller's wait (and the request, when no one else waits for
   * it). A signal aborted with a `TimeoutError` (`AbortSignal.timeout()`)
   * rejects with `TIMEOUT`, any other with `ABORTED`.
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Budget of this lookup (in a batch: of each lookup), every attempt and
   * back-off included, in ms; rejects `TIMEOUT` when spent. Overrides the
   * client's `totalTimeoutMs`. A lookup shared with concurrent calls for the
   * same hash runs under the budget of the call that started it; each call
   * still stops waiting when its own budget is spent.
   * @defaultValue the client's `totalTimeoutMs`
   */
  readonly totalTimeoutMs?: number | undefined;
}

/** Progress of a batch: inputs settled so far and in all. */
export interface ScanProgress {
  /** Inputs settled so far, answered or failed. */
  readonly done: number;
  /** Inputs in the batch, duplicates included. */
  readonly total: number;
}

/** Options of {@link HashScanClient.scanMany}. */
export interface ScanManyOptions extends ScanOptions {
  /** Lookups in flight at once. @defaultValue 8 */
  readonly concurrency?: number | undefined;
  /** Called after each input settles; an error it throws rejects the batch and stops its lookups. */
  readonly onProgress?: ((progress: ScanProgress) => void) | undefined;
}

/** Progress of {@link HashScanClient.scanIterable}, whose source may be endless. */
export interface ScanStreamProgress {
  /** Outcomes yielded so far, this one included. */
  readonly done: number;
  /** Inputs in the source, known once it has ended; `undefined` until then. */
  readonly total: number | undefined;
}

/** Options of {@link HashScanClient.scanIterable}. */
export interface ScanIterableOptions extends Omit<ScanManyOptions, 'onProgress'> {
  /**
   * Called as each outcome is yielded; an error it throws ends the loop with
   * that error and aborts the lookups still running.
   */
  readonly onProgress?: ((progress: ScanStreamProgress) => void) | undefined;
}

/** What {@link HashScanClient.stats} returns: the transport's counters and the cache's. */
export interface HashScanStats extends TransportStats {
  /** Cache counters; all zero when the cache is off. */
  readonly cache: CacheStats;
  /** Fleet counters; `undefined` without the `fleet` option. */
  readonly fleet?: FleetStats | undefined;
}
