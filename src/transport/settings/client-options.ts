import { parseBaseUrl } from '../../config/base-url.js';
import { optionalMs, positiveMs, wholeNumber } from '../../config/numbers.js';
import { requiredSetting } from '../../config/settings.js';
import { ConfigurationError } from '../../errors/configuration-error.js';
import type { ClientName, Observer } from '../../observe/events.js';
import { logSubscriber } from '../../observe/log-subscriber.js';
import { type Logger, silentLogger } from '../../observe/logger.js';
import { INTERNAL_OBSERVERS, NO_OBSERVERS, Observers, type WithInternalObservers } from '../../observe/observers.js';
import type { Redactor } from '../../secrets/redact.js';
import type { TelemetrySetting } from '../../telemetry/telemetry-options.js';
import type { FetchLike, TransportSettings } from '../call/exchange.js';
import { type RetryOptions, resolveRetry } from '../call/retry-options.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../http/body-limit.js';
import type { UndiciDispatcher } from '../http/dispatcher.js';
import { type ResilienceOptions, resolveResilience } from '../resilience/resilience-options.js';

/** Options both clients share. */
export interface CommonClientOptions extends ResilienceOptions {
  /**
   * Base URL of the service. Must be `https:`; `http:` is accepted only for
   * loopback hosts (local sandboxes). A path prefix is kept
   * (`https://api.example.com/v1` → `https://api.example.com/v1/hash_scan`).
   */
  readonly baseUrl?: string | undefined;
  /** Time-out of each attempt (headers and whole body), in ms. @defaultValue 10000 */
  readonly timeoutMs?: number | undefined;
  /**
   * Budget of a whole call, every attempt and back-off included, in ms. Each
   * attempt's `timeoutMs` is cut to what is left, and a back-off that would
   * end past the budget is not waited for (the last attempt's error stands).
   * Running out rejects with `TIMEOUT` (SMS: `TIMEOUT`, with `outcome` saying
   * whether the message may have gone out) and the attempts made. Per-call
   * options can override it. A caller's `signal` aborted with a
   * `TimeoutError` (as `AbortSignal.timeout()` does) is reported the same way.
   * @defaultValue none: a call lasts at most about `(retries + 1) × timeoutMs` plus back-off
   * @example
   * ```ts
   * new SmsClient({ timeoutMs: 5_000, totalTimeoutMs: 15_000 }) // answer an upload within 15 s
   * ```
   */
  readonly totalTimeoutMs?: number | undefined;
  /**
   * Most bytes a response body may hold, counted after decoding
   * (`Content-Encoding`), so a gzip bomb or an endless body costs at most
   * about this much memory. A `Content-Length` announcing more is refused
   * before the body is read. Past it the connection is cut and the call
   * rejects, without retry: `INVALID_RESPONSE` (both clients; SMS outcome
   * `unknown`), with a message naming the limit.
   * @defaultValue 1048576 (1 MiB; a real answer is a few hundred bytes)
   */
  readonly maxResponseBytes?: number | undefined;
  /** Retries of transient failures; `false` for a single attempt. @defaultValue `{ retries: 2, minDelayMs: 500, maxDelayMs: 8000 }` */
  readonly retry?: RetryOptions | false | undefined;
  /**
   * The `fetch` to use, e.g. one with a custom undici dispatcher.
   * @defaultValue `globalThis.fetch`, looked up on every request (so msw sees it)
   */
  readonly fetch?: FetchLike | undefined;
  /**
   * Opt-in faster transport: an undici dispatcher (`new Agent()`, a `Pool`,
   * a `ProxyAgent`, a `MockAgent` in tests; undici 6 (Node >= 18.17), 7
   * (Node >= 20.18.1) or 8 (Node >= 22.19), installed by you) that sends
   * every request instead of `fetch`, through its low-level `dispatch()` with
   * the client's own response handler (a hand-written dispatcher with only
   * `request()` works too). It skips the
   * WHATWG `Request`/`Response`/`AbortSignal` objects `fetch` builds per
   * request, which makes it several times cheaper in CPU; time-outs, aborts,
   * retries, redirects (never followed), logging and errors behave the same.
   * Interceptors of `fetch` (msw) do not see these requests. Cannot be
   * combined with `fetch`.
   * @defaultValue none: requests go through `fetch`
   */
  readonly dispatcher?: UndiciDispatcher | undefined;
  /** Console-like logger (`console` works). Lines are redacted. @defaultValue silent */
  readonly logger?: Logger | undefined;
  /**
   * OpenTelemetry spans and metrics (needs the optional peer dependency
   * `@opentelemetry/api`): left out, the providers the application
   * registered globally are used; `{ tracerProvider, meterProvider }` names
   * this client's own; `false` turns them off. Without the API installed,
   * telemetry is off whatever this says. The `diagnostics_channel` tracing
   * channels are published either way.
   * @defaultValue the global providers, when `@opentelemetry/api` is installed
   * @example
   * ```ts
   * new HashScanClient({ telemetry: { tracerProvider: provider } })
   * new SmsClient({ telemetry: false })
   * ```
   */
  readonly telemetry?: TelemetrySetting | undefined;
}

/** Default of `timeoutMs`, both clients. */
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Checks `timeoutMs` once, first: the credential source (a provider's own
 * time limit) and the transport both take the checked value.
 */
export function resolveTimeoutMs(value: number | undefined): number {
  return positiveMs(value, 'timeoutMs', DEFAULT_TIMEOUT_MS);
}

/** What a client has checked before the shared options: its redactor and `timeoutMs`. */
export interface CheckedBasics {
  readonly redact: Redactor;
  readonly timeoutMs: number;
}

/** What each client sets for itself: the shared layer never tells clients apart. */
export interface ClientDefaults {
  /** Environment variable read when `baseUrl` is absent, e.g. `SMS_BASE_URL`. */
  readonly baseUrlEnv: string;
  /** Prefix of log lines, `client` of events. */
  readonly name: ClientName;
  /** How long an open circuit rejects calls before a probe, when `circuitBreaker.cooldownMs` is absent. @defaultValue 1000 */
  readonly cooldownMs?: number;
}

/** Checks the shared options and builds the transport settings of one client. */
export function resolveTransportSettings(
  options: CommonClientOptions,
  defaults: ClientDefaults,
  { redact, timeoutMs }: CheckedBasics,
  observers: readonly Observer[] = (options as WithInternalObservers)[INTERNAL_OBSERVERS] ?? [],
): TransportSettings {
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new ConfigurationError('fetch', 'must be a function');
  }
  const { dispatcher } = options;
  if (dispatcher !== undefined) {
    if (typeof dispatcher !== 'object' || dispatcher === null || typeof dispatcher.request !== 'function') {
      throw new ConfigurationError('dispatcher', 'must be an undici dispatcher (an object with a request() method)');
    }
    if (options.fetch !== undefined) {
      throw new ConfigurationError('dispatcher', 'cannot be combined with `fetch`: pick one way to send requests');
    }
  }
  const logger = options.logger ?? silentLogger;
  for (const level of ['debug', 'info', 'warn', 'error'] as const) {
    if (typeof logger[level] !== 'function') throw new ConfigurationError('logger', `must have a ${level}() method`);
  }
  return {
    baseUrl: parseBaseUrl(requiredSetting(options.baseUrl, 'baseUrl', defaults.baseUrlEnv)),
    timeoutMs,
    totalTimeoutMs: optionalMs(options.totalTimeoutMs, 'totalTimeoutMs'),
    maxResponseBytes: wholeNumber(options.maxResponseBytes, 'maxResponseBytes', DEFAULT_MAX_RESPONSE_BYTES, {
      min: 1,
      max: Number.MAX_SAFE_INTEGER,
    }),
    retry: resolveRetry(options.retry),
    fetch: options.fetch,
    dispatcher,
    logger,
    observers: observersOf(logger, observers),
    redact,
    name: defaults.name,
    resilience: resolveResilience(options, defaults.cooldownMs),
  };
}

/** The logger's subscriber first (none for the silent default), then the internal observers. */
function observersOf(logger: Logger, others: readonly Observer[]): Observers {
  const logs = logSubscriber(logger);
  const list = logs === undefined ? others : [logs, ...others];
  return list.length === 0 ? NO_OBSERVERS : new Observers(list);
}
