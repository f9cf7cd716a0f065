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
  debug(message: string, details?: Record<string, unknown>): void;
  info(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}

const noop = (): void => {};

/** The default logger: says nothing. */
export const silentLogger: Logger = Object.freeze({ debug: noop, info: noop, warn: noop, error: noop });
