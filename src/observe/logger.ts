/**
 * A console-like logger. Each HTTP attempt is one call with a one-line,
 * already redacted message (no API key, secret or signature), e.g.
 *
 * ```text
 * hashscan: GET https://h.example/hash_scan?api_key=***&hash=275a… -> 200 in 41 ms (attempt 1)
 * sms: POST https://sms.example/ -> 400 SignatureDoesNotMatch in 12 ms (attempt 1)
 * hashscan: GET https://h.example/hash_scan?api_key=***&hash=275a… -> 401 in 9 ms (attempt 1): check apiKey …
 * ```
 *
 * `console` gets only that line. A logger with `structured: true` also gets
 * the same facts as {@link LogFields} in a second argument, for loggers that
 * index fields. pino and bunyan take `(fields, message)`: wrap them with
 * {@link objectFirstLogger}.
 *
 * @example
 * ```ts
 * new HashScanClient({ logger: console })                   // one line per attempt
 * new HashScanClient({ logger: objectFirstLogger(pino()) }) // pino: fields + message
 * new HashScanClient({                                      // any other logger, by hand
 *   logger: { structured: true, debug: (m, f) => log.debug(m, f), info: …, warn: …, error: … },
 * })
 * ```
 */
export interface Logger {
  /** An HTTP attempt that got a 2xx response: masked URL, status, duration, attempt number. */
  debug(message: string, fields?: LogFields): void;
  /** A retry about to happen: the delay before it and the error code that caused it. */
  info(message: string, fields?: LogFields): void;
  /** An HTTP attempt that failed: a non-2xx status, or a time-out or network error code. */
  warn(message: string, fields?: LogFields): void;
  /** Reserved for failures; the clients do not call it at present, but `console` and common loggers have it. */
  error(message: string, fields?: LogFields): void;
  /**
   * `true` to receive {@link LogFields} as the second argument of every
   * call. Left out (as with `console`), each call gets the one-line message only.
   * @defaultValue `false`
   */
  readonly structured?: boolean;
}

/**
 * The facts of a log line, as fields (all redacted). A type alias, not an
 * interface, so it fits loggers typed `(message, details?: Record<string, unknown>)`.
 */
export type LogFields = {
  /** `hashscan` or `sms`. */
  readonly client: string;
  /** `GET` or `POST` (attempt lines). */
  readonly method?: string;
  /** The request URL with secrets masked (attempt lines). */
  readonly url?: string;
  /** The HTTP status, when a response came. */
  readonly status?: number;
  /** `TIMEOUT`, `NETWORK` or `ABORTED` for an attempt without a response; the error code before a retry. */
  readonly code?: string;
  /** The service's own code from the body (the SMS `Code`). */
  readonly serviceCode?: string;
  /** What to check, e.g. `apiKey` after a 401/403 from the lookup service. */
  readonly hint?: string;
  /** How long the attempt took, in ms. */
  readonly durationMs?: number;
  /** 1-based attempt number. */
  readonly attempt?: number;
  /** The wait before the next attempt (retry lines), in ms. */
  readonly delayMs?: number;
  /** The SMS client's correction of the local clock, in ms (clock lines). */
  readonly clockOffsetMs?: number;
  /** Why the shared cache was skipped: `timeout`, `error` (store lines) or why an entry was ignored, e.g. `bad MAC`. */
  readonly reason?: string;
  /** Store failures since the last store line, not logged one by one (store lines). */
  readonly failuresNotLogged?: number;
  /** Which circuit breaker, by operation and host (breaker lines). */
  readonly circuit?: string;
  /** The state a circuit breaker or the shared store entered (breaker and store lines). */
  readonly state?: string;
  /** How long an opened circuit refuses calls, or the store is left alone, in ms. */
  readonly openMs?: number;
  /** Whose pause holds every attempt: `retry-after` (the service's) or `fleet` (read from Redis) (pause lines). */
  readonly source?: string;
  /** How long a pause holds every attempt, in ms (pause lines). */
  readonly pauseMs?: number;
};

/** A logger in the pino/bunyan style: fields first, then the message. */
export interface ObjectFirstLogger {
  /** Receives successful attempts. */
  debug(fields: object, message: string): void;
  /** Receives retries. */
  info(fields: object, message: string): void;
  /** Receives failed attempts. */
  warn(fields: object, message: string): void;
  /** Reserved (not called at present). */
  error(fields: object, message: string): void;
}

/**
 * Adapts a `(fields, message)` logger such as pino or bunyan: each line goes
 * out as its message with {@link LogFields} as structured fields.
 *
 * @example
 * ```ts
 * import pino from 'pino'
 * const client = new SmsClient({ logger: objectFirstLogger(pino({ level: 'debug' })) })
 * // {"level":40,"client":"sms","status":400,"serviceCode":"SignatureDoesNotMatch",…,"msg":"sms: POST … -> 400 …"}
 * ```
 */
export function objectFirstLogger(target: ObjectFirstLogger): Logger {
  return {
    structured: true,
    debug: (message, fields) => target.debug(fields ?? {}, message),
    info: (message, fields) => target.info(fields ?? {}, message),
    warn: (message, fields) => target.warn(fields ?? {}, message),
    error: (message, fields) => target.error(fields ?? {}, message),
  };
}

/** Sends one line to `logger`: with `fields` as the second argument only if it is `structured`. */
export function emitLine(
  logger: Logger,
  level: 'debug' | 'info' | 'warn' | 'error',
  message: string,
  fields: LogFields,
): void {
  if (logger.structured === true) logger[level](message, fields);
  else logger[level](message);
}

const noop = (): void => {};

/** The default logger: says nothing. */
export const silentLogger: Logger = Object.freeze({ debug: noop, info: noop, warn: noop, error: noop });

/** What a client reads off a response for the log line: its own error code, and a hint. */
export interface ResponseNote {
  /** The service's code from the body, e.g. the SMS `Code`. */
  readonly serviceCode?: string | undefined;
  /** What the user should check. */
  readonly hint?: string | undefined;
}

/** Reads the log note of a response (called only when a logger is set). */
export type DescribeResponse = (status: number, text: string) => ResponseNote | undefined;

/** The one-line message of an attempt: `name: METHOD url -> status [code] in N ms (attempt n)[: hint]`. */
export function attemptLine(name: string, fields: LogFields): string {
  const result = fields.status === undefined ? fields.code : String(fields.status);
  const code = fields.serviceCode === undefined ? '' : ` ${fields.serviceCode}`;
  const hint = fields.hint === undefined ? '' : `: ${fields.hint}`;
  return `${name}: ${fields.method} ${fields.url} -> ${result}${code} in ${fields.durationMs} ms (attempt ${fields.attempt})${hint}`;
}
