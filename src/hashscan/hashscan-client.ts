import { ConfigurationError } from '../errors/configuration-error.js';
import { HashScanError } from '../errors/hashscan-error.js';
import type { HashScanFleetOptions } from '../fleet-plugin/fleet-options.js';
import { fleetParts, type LookupFleet } from '../fleet-plugin/fleet-plugin.js';
import { type NormalizedHash, normalizeHash } from '../hashing/hash-algorithm.js';
import type { Observers } from '../observe/observers.js';
import { observeOperation } from '../observe/operation.js';
import type { CredentialSource } from '../secrets/credentials.js';
import type { Redactor } from '../secrets/redact.js';
import { clientObservers } from '../telemetry/publishers.js';
import { startDeadline, withBudget } from '../transport/call/deadline.js';
import { Transport } from '../transport/call/transport.js';
import { type ClientDefaults, resolveTransportSettings } from '../transport/settings/client-options.js';
import { summarizeTransport, type TransportSummary } from '../transport/settings/settings-summary.js';
import type { AbortLike } from '../util/abort-like.js';
import { InFlight, type SharedProgress } from '../util/in-flight.js';
import { INSPECT, inspectWith } from '../util/inspect.js';
import { type ApiKey, apiKeyWithRedactor } from './api-key.js';
import { describeScanResponse } from './auth-hint.js';
import { scanBatch } from './batch.js';
import { checkEntry, isOutcome } from './batch-outcome.js';
import { NO_CACHE_STATS, VerdictCache } from './cache/verdict-cache.js';
import { callerAbortError } from './caller-abort.js';
import { LookupExchange, type LookupSettings } from './lookup-exchange.js';
import { allowedExtraFields, notDetectedSchema } from './response-schema.js';
import { batchCall, resolveScanCall } from './scan-call.js';
import type {
  HashScanClientOptions,
  HashScanStats,
  ScanIterableOptions,
  ScanManyOptions,
  ScanOptions,
} from './scan-options.js';
import { errorOutcome, type FileScanOutcome, type ScanFileOptions, scanFileWith, settleScan } from './scan-outcome.js';
import type { IndexedScanOutcome, ScanOutcome, ScanResult } from './scan-result.js';
import { type ScanTrace, scanTrace } from './scan-trace.js';
import { SharedBodies } from './shared-body.js';
import { scanStream } from './stream.js';

export type { HashScanClientOptions } from './scan-options.js';

/** A lookup's per-call options as a batch gives them (its signal may be its own `AbortLike`). */
interface LookupCall {
  readonly signal: AbortLike | undefined;
  readonly totalTimeoutMs: number | undefined;
}

/** What this client sets for itself in the shared transport settings. */
const HASHSCAN_DEFAULTS: ClientDefaults = { baseUrlEnv: 'HASHSCAN_BASE_URL', name: 'hashscan' };

/** Hashes of an array given to `scanIterable` read from a shared store (and claimed for the fleet) at once. */
const PREFETCH_WINDOW = 256;

/**
 * Asks the hash lookup service whether a file hash is flagged as a virus.
 * Only the hash is sent. An abnormal response is never reported as
 * `not_detected`: it rejects with a {@link HashScanError}.
 *
 * @example
 * ```ts
 * const client = new HashScanClient() // HASHSCAN_API_KEY, HASHSCAN_BASE_URL
 * const result = await client.scan(await hashFile(path))
 * if (result.verdict === 'malicious') quarantine(path, result.source)
 * ```
 */
export class HashScanClient {
  readonly #apiKey: CredentialSource<ApiKey>;
  readonly #transport: Transport;
  readonly #observers: Observers;
  readonly #redact: Redactor;
  readonly #cache: VerdictCache | undefined;
  readonly #fleet: LookupFleet | undefined;
  readonly #totalTimeoutMs: number | undefined;
  readonly #inFlight = new InFlight<string, ScanResult>();
  readonly #notDetected: ReturnType<typeof notDetectedSchema>;
  readonly #summary: TransportSummary & { readonly allowedExtraFields: readonly string[] };
  /** What every lookup of this client shares (key, schema, redactor, shared bodies). */
  readonly #lookups: LookupSettings;
  /** Data-source id used in cache keys. */
  readonly sourceId: string;
  /** The checked base URL. */
  readonly baseUrl: string;

  /**
   * The deprecated plain `fleet: { redis, … }` form (same behaviour), its own signature so that an editor
   * strikes the call through.
   * @deprecated Pass `fleet: redisFleet({ redis, … })` of `hashscan-sms/fleet`: `fleet: { redis }` stays for at least one
   * minor release.
   */
  constructor(options: HashScanClientOptions & { readonly fleet: HashScanFleetOptions });
  /** A client; every option has a default (see {@link HashScanClientOptions}). */
  constructor(options?: HashScanClientOptions);
  constructor(options: HashScanClientOptions = {}) {
    const key = apiKeyWithRedactor(options);
    this.#apiKey = key.source;
    this.#redact = key.redact;
    const observers = clientObservers(options, { client: 'hashscan', baseUrl: () => this.baseUrl, owner: this }, key);
    const settings = resolveTransportSettings(options, HASHSCAN_DEFAULTS, key, observers);
    this.#observers = settings.observers;
    this.#totalTimeoutMs = settings.totalTimeoutMs;
    this.baseUrl = settings.baseUrl;
    if (options.sourceId !== undefined && (typeof options.sourceId !== 'string' || options.sourceId === '')) {
      throw new ConfigurationError('sourceId', 'must be a non-empty string');
    }
    this.sourceId = options.sourceId ?? settings.baseUrl;
    this.#fleet = fleetParts(options.fleet)?.lookups({ ...settings, service: this.sourceId });
    const fleetGate = this.#fleet?.gate;
    this.#transport = new Transport({ ...settings, describeResponse: describeScanResponse, fleetGate });
    const allowed = allowedExtraFields(options.allowedExtraFields);
    this.#notDetected = notDetectedSchema(allowed);
    this.#lookups = {
      apiKey: this.#apiKey,
      notDetected: this.#notDetected,
      redact: this.#redact,
      bodies: new SharedBodies(),
    };
    this.#summary = { ...summarizeTransport(settings), allowedExtraFields: [...allowed] };
    this.#cache =
      options.cache === false
        ? undefined
        : new VerdictCache(this.#fleet?.cacheOptions(options.cache ?? {}) ?? options.cache ?? {}, {
            sourceId: this.sourceId,
            // A fixed key may seal shared entries by default; a provider's keys rotate, so it needs `cache.secret`.
            apiKey: key.fixedKey,
            observers: settings.observers,
            notDetected: this.#notDetected,
            redact: this.#redact,
          });
  }

  /**
   * Looks up one MD5, SHA-1 or SHA-256 hex digest (any letter case).
   *
   * Resolves `malicious` or `not_detected`; rejects with a
   * {@link HashScanError} for invalid input and for every abnormal outcome.
   * Concurrent calls for the same hash share one request; answers are cached.
   */
  async scan(hash: string, options: ScanOptions = {}): Promise<ScanResult> {
    const call = resolveScanCall(options);
    const query = normalizeHash(hash);
    if (this.#observers.active) return this.#observed(query, call);
    return this.#cache?.get(query.hash) ?? this.#lookup(query, call);
  }

  /**
   * `scan()` with every option of `scan`, that rejects only for invalid options (`ConfigurationError`):
   * a failure resolves `{ verdict: 'error', hash, error }`, ready for `decide()`.
   * @example `if (decide(await client.scanOutcome(sha256, { totalTimeoutMs: 3_000 })) !== 'allow') quarantine(file)`
   */
  async scanOutcome(hash: string, options: ScanOptions = {}): Promise<ScanOutcome> {
    const call = resolveScanCall(options);
    return settleScan((input) => this.scan(input, call), hash);
  }

  /**
   * Hashes a file (streamed, SHA-256 by default) and looks it up, with every option of `scan`; rejects
   * only for invalid options (an unreadable file is a `FILE_UNREADABLE` outcome, one that changed while it
   * was read a `FILE_CHANGED` one).
   * @example `if (decide(await client.scanFile(req.file.path)) !== 'allow') return res.sendStatus(422)`
   */
  async scanFile(path: string, options: ScanFileOptions = {}): Promise<FileScanOutcome> {
    const call = resolveScanCall(options);
    return scanFileWith((input) => this.scan(input, call), path, options);
  }

  /**
   * Looks up a batch. Resolves one outcome per index, in input order; never
   * rejects for a single bad entry: a hole of a sparse array, a non-string or
   * an invalid hash is an `INVALID_HASH` outcome, and nothing is sent for it.
   * Identical hashes (in any letter case) cost one request and share one
   * outcome object.
   */
  async scanMany(hashes: readonly string[], options: ScanManyOptions = {}): Promise<ScanOutcome[]> {
    const { totalTimeoutMs, ...settings } = batchCall(options);
    return scanBatch(hashes, settings, (query, signal) => this.#outcomeOf(query, signal, totalTimeoutMs));
  }

  /**
   * Looks up hashes from any iterable or async iterable (a file read line by
   * line, a database cursor) and yields each outcome with its input `index`
   * as soon as it settles, whatever the source is doing. Memory stays bounded
   * by `concurrency`, not the input size. Non-strings are `INVALID_HASH`
   * outcomes. Breaking out of the loop aborts the lookups still running;
   * aborting `signal` stops pulling at once, yields the lookups in flight as
   * `ABORTED` and ends the loop. An error thrown by the source ends the loop
   * with that error, after the lookups already started have been yielded.
   *
   * @example
   * ```ts
   * for await (const outcome of client.scanIterable(readHashes(), { concurrency: 32 })) {
   *   if (decide(outcome) !== 'allow') report(outcome.index, outcome)
   * }
   * ```
   */
  async *scanIterable(
    hashes: Iterable<string> | AsyncIterable<string>,
    options: ScanIterableOptions = {},
  ): AsyncGenerator<IndexedScanOutcome, void, undefined> {
    const { totalTimeoutMs, ...settings } = batchCall(options);
    // An array's hashes are known up front: a shared store that reads many keys is read once per window.
    const source = Array.isArray(hashes) && this.#cache?.readsMany === true ? this.#prefetching(hashes) : hashes;
    yield* scanStream(source, settings, (input, signal) => this.#outcome(input, signal, totalTimeoutMs));
  }

  /**
   * An array's entries, each window of them read from the shared store in
   * one call before it is handed out, and those not there claimed for the
   * fleet in one script: their lookups send neither a read nor a claim of
   * their own. Entries are handed out as they are (each is checked again
   * as a lookup's input).
   */
  async *#prefetching(hashes: readonly unknown[]): AsyncGenerator<unknown, void, undefined> {
    for (let start = 0; start < hashes.length; start += PREFETCH_WINDOW) {
      const window = hashes.slice(start, start + PREFETCH_WINDOW);
      const queries = new Map<string, NormalizedHash>();
      for (const entry of window) {
        const checked = checkEntry(entry);
        if (!isOutcome(checked)) queries.set(checked.hash, checked);
      }
      const missing = await this.#cache?.prefetch([...queries.values()]);
      if (missing !== undefined) await this.#fleet?.lookups?.claimAhead?.(missing.map((query) => query.hash));
      yield* window;
    }
  }

  /** Forgets every verdict cached in this process (a shared store is left alone: other replicas use it). */
  clearCache(): void {
    this.#cache?.clear();
  }

  /** Requests, retries, cache hits per level, breaker state, retry tokens left, throttled time. Cheap; nothing secret. */
  stats(): HashScanStats {
    return { ...this.#transport.stats(), cache: this.#cache?.stats() ?? NO_CACHE_STATS, ...this.#fleet?.counted };
  }

  /** The effective settings (see {@link HashScanClient.toJSON}); never the API key. */
  [INSPECT](_depth?: number, _options?: object, inspect?: unknown): string {
    return `HashScanClient ${inspectWith(inspect, this.toJSON(), { depth: 3 })}`;
  }

  /** The effective settings (time-out, retry, cache and its size, …), safe to log: never the API key. */
  toJSON(): Record<string, unknown> {
    const { baseUrl, ...transport } = this.#summary;
    const cache = this.#cache === undefined ? false : { ...this.#cache.settings, size: this.#cache.size };
    return { baseUrl, sourceId: this.sourceId, ...transport, cache, ...this.#fleet?.described };
  }

  /** An entry of any type (never converted to a string) as an outcome. */
  #outcome(input: unknown, signal: AbortLike | undefined, totalTimeoutMs?: number): Promise<ScanOutcome> {
    const entry = checkEntry(input);
    return isOutcome(entry) ? Promise.resolve(entry) : this.#outcomeOf(entry, signal, totalTimeoutMs);
  }

  /**
   * `scan()` of an input already normalized (batches check every input first),
   * as an outcome: never rejects. (Not `async`: a batch pays per lookup for
   * every promise and frame, and this needs one `then` only on a miss.)
   */
  #outcomeOf(query: NormalizedHash, signal: AbortLike | undefined, totalTimeoutMs?: number): Promise<ScanOutcome> {
    try {
      const cached = this.#observers.active ? undefined : this.#cache?.get(query.hash);
      if (cached !== undefined) return Promise.resolve(cached);
      const call = { signal, totalTimeoutMs };
      const looked = this.#observers.active ? this.#observed(query, call) : this.#lookup(query, call);
      return looked.then(undefined, (error: unknown) => errorOutcome(query.hash, error));
    } catch (error) {
      return Promise.resolve(errorOutcome(query.hash, error));
    }
  }

  /**
   * Joins the lookup of `query` already under way, or starts it: the one
   * place its budget is worked out. Its deadline (the call's budget, else the
   * client's) starts here, shared by the store, the fleet's wait and the
   * attempts; a caller waits under the call's budget, or with a shared store
   * the client's, so a slow store cannot hold it past that.
   */
  #lookup(query: NormalizedHash, { signal, totalTimeoutMs }: LookupCall, trace?: ScanTrace): Promise<ScanResult> {
    const bounded = totalTimeoutMs ?? (this.#cache?.shared === true ? this.#totalTimeoutMs : undefined);
    const wait = bounded === undefined ? undefined : withBudget(signal, bounded);
    const waitSignal = wait === undefined ? signal : wait.signal;
    const aborted = ({ attempts }: SharedProgress) => callerAbortError(query.hash, attempts, waitSignal?.reason);
    let result = this.#inFlight.join(query.hash, waitSignal, aborted);
    if (result === undefined) {
      const flight = this.#inFlight.open();
      const deadline = startDeadline(totalTimeoutMs ?? this.#totalTimeoutMs);
      const lookup = new LookupExchange(this.#lookups, query, flight.progress, flight.signal, deadline, trace?.op);
      if (trace !== undefined) trace.progress = flight.progress;
      result = this.#inFlight.track(query.hash, flight, this.#answer(lookup, trace), waitSignal, aborted);
    }
    return wait === undefined ? result : result.finally(wait.dispose);
  }

  /** A lookup someone observes: its operation, cache levels and in-flight join reported as events. */
  #observed(query: NormalizedHash, call: LookupCall): Promise<ScanResult> {
    const trace = scanTrace(this.#observers, query, this.sourceId);
    return observeOperation(this.#observers, trace.op, trace, () => {
      const cached = this.#cache?.get(query.hash);
      if (this.#cache !== undefined) trace.level(cached === undefined ? 'miss' : 'hit', 'memory');
      if (cached !== undefined) return Promise.resolve(cached);
      if (this.#inFlight.has(query.hash)) trace.joined();
      return this.#lookup(query, call, trace);
    });
  }

  /**
   * The lookup shared by concurrent callers: the shared store (when set),
   * else the service (once per fleet), the answer then kept in the cache.
   * Without a store nothing is awaited before the request: a lookup pays for
   * no tick it does not need. (Not `async`: without a cache the transport's
   * promise is the lookup's, with no promise and tick of its own on top.)
   */
  #answer(lookup: LookupExchange, trace: ScanTrace | undefined): Promise<ScanResult> {
    // The shared store is asked inside the shared operation: concurrent callers cost one store read.
    const recalled = this.#cache?.recall(lookup.query);
    if (recalled !== undefined) return this.#recalled(lookup, recalled, trace);
    const sent = this.#transport.send(lookup);
    return this.#cache === undefined ? sent : sent.then((result) => this.#keep(result));
  }

  /** The shared store's answer, else the service's (once per fleet), kept in the cache. */
  async #recalled(
    lookup: LookupExchange,
    recalled: Promise<ScanResult | undefined>,
    trace: ScanTrace | undefined,
  ): Promise<ScanResult> {
    const { query } = lookup;
    const stored = await recalled;
    trace?.level(stored === undefined ? 'miss' : 'hit', 'shared');
    if (stored !== undefined) return stored;
    const lookups = this.#fleet?.lookups;
    if (lookups !== undefined) {
      const ask = () => this.#transport.send(lookup).then((result) => this.#keep(result));
      return lookups.run(query.hash, ask, () => this.#cache?.poll(query), lookup.signal);
    }
    return this.#keep(await this.#transport.send(lookup));
  }

  /** Keeps an answer in the cache, resolving once a shared store has it too. */
  #keep(result: ScanResult): ScanResult | Promise<ScanResult> {
    return this.#cache?.set(result)?.then(() => result) ?? result;
  }
}
