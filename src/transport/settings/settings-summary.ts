import { silentLogger } from '../../observe/logger.js';
import type { TransportSettings } from '../call/exchange.js';
import type { ResolvedRetry } from '../call/retry-options.js';

/**
 * The effective transport settings of a client, as `toJSON()` and
 * `util.inspect` show them: values only, never a key, secret or signature.
 */
export interface TransportSummary {
  /** The checked base URL (it cannot hold credentials: `parseBaseUrl` refuses them). */
  readonly baseUrl: string;
  /** Time-out of each attempt, in ms. */
  readonly timeoutMs: number;
  /** Budget of a whole call, in ms; absent when there is none. */
  readonly totalTimeoutMs?: number;
  /** Most bytes a decoded response body may hold. */
  readonly maxResponseBytes: number;
  /** Retries of transient failures, or `false` for one attempt. */
  readonly retry: ResolvedRetry | false;
  /** How requests go out: `fetch` (global, looked up per request), a `custom fetch`, or an undici `dispatcher`. */
  readonly sendsWith: 'fetch' | 'custom fetch' | 'dispatcher';
  /** `silent`, `lines` (one message per call) or `structured` (message and fields). */
  readonly logger: 'silent' | 'lines' | 'structured';
}

/** What {@link TransportSummary} says about `settings`. */
export function summarizeTransport(settings: TransportSettings): TransportSummary {
  const { retry } = settings;
  return {
    baseUrl: settings.baseUrl,
    timeoutMs: settings.timeoutMs,
    ...(settings.totalTimeoutMs !== undefined && { totalTimeoutMs: settings.totalTimeoutMs }),
    maxResponseBytes: settings.maxResponseBytes,
    retry:
      retry.retries === 0
        ? false
        : { retries: retry.retries, minDelayMs: retry.minDelayMs, maxDelayMs: retry.maxDelayMs },
    sendsWith:
      settings.dispatcher !== undefined ? 'dispatcher' : settings.fetch !== undefined ? 'custom fetch' : 'fetch',
    logger: settings.logger === silentLogger ? 'silent' : settings.logger.structured === true ? 'structured' : 'lines',
  };
}
