import { ConfigurationError } from '../errors/configuration-error.js';
import type { TelemetrySetting } from '../telemetry/telemetry-options.js';
import { parseBaseUrl } from './base-url.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './body-limit.js';
import type { UndiciDispatcher } from './dispatcher.js';
import type { FetchLike, TransportSettings } from './exchange.js';
import { type Logger, silentLogger } from './logger.js';
import type { Redactor } from './redact.js';
import { DEFAULT_COOLDOWN_MS } from './resilience/constants.js';
import { type ResilienceOptions, resolveResilience } from './resilience/resilience-options.js';
import { type RetryOptions, resolveRetry } from './retry-options.js';

/** Options both clients share. */
export interface CommonClientOptions extends ResilienceOptions {
  /**
   * Base URL of the service. Must be `https:`; `http:` is accepted only for
   * loopback hosts (local sandboxes). A path prefix is kept
   * (`https://api.example.com/v1` → `https://api.example.com/v1/hash_scan`).
   */
  readonly baseUrl?: string;
  /** Time-out of each attempt (headers and whole body), in ms. @defaultValue 10000 */
  readonly timeoutMs?: number;
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
  readonly totalTimeoutMs?: number;
  /**
   * Most bytes a response body may hold, counted after decoding
   * (`Content-Encoding`), so a gzip bomb or an endless body costs at most
   * about this much memory. A `Content-Length` announcing more is refused
   * before the body is read. Past it the connection is cut and the call
   * rejects, without retry: `INVALID_RESPONSE` (both clients; SMS outcome
   * `unknown`), with a message naming the limit.
   * @defaultValue 1048576 (1 MiB; a real answer is a few hundred bytes)
   */
  readonly maxResponseBytes?: number;
  /** Retries of transient failures; `false` for a single attempt. @defaultValue `{ retries: 2, minDelayMs: 500, maxDelayMs: 8000 }` */
  readonly retry?: RetryOptions | false;
  /**
   * The `fetch` to use, e.g. one with a custom undici dispatcher.
   * @defaultValue `globalThis.fetch`, looked up on every request (so msw sees it)
   */
  readonly fetch?: FetchLike;
  /**
   * Opt-in faster transport: an undici dispatcher (`new Agent()`, a `Pool`,
   * a `ProxyAgent`, a `MockAgent` in tests; undici 6 or 7, installed by you)
   * whose `request()` sends every request instead of `fetch`. It skips the
   * WHATWG `Request`/`Response`/`AbortSignal` objects `fetch` builds per
   * request, which makes it several times cheaper in CPU; time-outs, aborts,
   * retries, redirects (never followed), logging and errors behave the same.
   * Interceptors of `fetch` (msw) do not see these requests. Cannot be
   * combined with `fetch`.
   * @defaultValue none: requests go through `fetch`
   */
  readonly dispatcher?: UndiciDispatcher;
  /** Console-like logger (`console` works). Lines are redacted. @defaultValue silent */
  readonly logger?: Logger;
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
  readonly telemetry?: TelemetrySetting;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/** An option, else its environment variable; missing or empty is a configuration error. */
export function requiredSetting(value: string | undefined, option: string, envName: string): string {
  if (value !== undefined && typeof value !== 'string') {
    throw new ConfigurationError(option, 'must be a string');
  }
  const resolved = value ?? process.env[envName];
  if (resolved === undefined || resolved === '') {
    throw new ConfigurationError(option, `is required: pass \`${option}\` or set the ${envName} environment variable`);
  }
  return resolved;
}

/** A positive whole number of milliseconds within what `setTimeout` can wait. */
export function positiveMs(value: number | undefined, option: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1 || value > 2_147_483_647) {
    throw new ConfigurationError(option, 'must be a whole number of milliseconds between 1 and 2147483647');
  }
  return value;
}

/** An optional budget in ms: absent stays absent, anything else must be a valid time-out. */
export function optionalMs(value: number | undefined, option: string): number | undefined {
  return value === undefined ? undefined : positiveMs(value, option, 0);
}

function byteLimit(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ConfigurationError('maxResponseBytes', 'must be a whole number of bytes >= 1');
  }
  return value;
}

/** Checks the shared options and builds the transport settings of one client. */
export function resolveTransportSettings(
  options: CommonClientOptions,
  context: { readonly baseUrlEnv: string; readonly name: string; readonly redact: Redactor },
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
    baseUrl: parseBaseUrl(requiredSetting(options.baseUrl, 'baseUrl', context.baseUrlEnv)),
    timeoutMs: positiveMs(options.timeoutMs, 'timeoutMs', DEFAULT_TIMEOUT_MS),
    totalTimeoutMs: optionalMs(options.totalTimeoutMs, 'totalTimeoutMs'),
    maxResponseBytes: byteLimit(options.maxResponseBytes),
    retry: resolveRetry(options.retry),
    fetch: options.fetch,
    dispatcher,
    logger,
    redact: context.redact,
    name: context.name,
    resilience: resolveResilience(
      options,
      context.name === 'sms' ? DEFAULT_COOLDOWN_MS.sms : DEFAULT_COOLDOWN_MS.hashscan,
    ),
  };
}
