/**
 * A console-like logger. Every method receives a one-line message and a
 * details object; both are already redacted (no API key, secret or
 * signature), so they can go to any log sink.
 *
 * @example
 * ```ts
 * new HashScanClient({ logger: console })
 * // or route into pino: { debug: (m, d) => pino.debug(d, m), ... }
 * ```
 */
export interface Logger {
  /** An HTTP attempt that got a 2xx response: masked URL, status, duration, attempt number. */
  debug(message: string, details?: Record<string, unknown>): void;
  /** A retry about to happen: the delay before it and the error code that caused it. */
  info(message: string, details?: Record<string, unknown>): void;
  /** An HTTP attempt that failed: a non-2xx status, or a time-out or network error code. */
  warn(message: string, details?: Record<string, unknown>): void;
  /** Reserved for failures; the clients do not call it at present, but `console` and common loggers have it. */
  error(message: string, details?: Record<string, unknown>): void;
}

const noop = (): void => {};

/** The default logger: says nothing. */
export const silentLogger: Logger = Object.freeze({ debug: noop, info: noop, warn: noop, error: noop });
