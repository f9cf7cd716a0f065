import { brandErrorClass } from './brand.js';
import { HashScanSmsError, type HashScanSmsErrorInit } from './hashscan-sms-error.js';

/**
 * Why a hash lookup gave no trustworthy answer.
 *
 * - `INVALID_HASH`: the input is not 32, 40 or 64 hex digits; nothing was sent.
 * - `TIMEOUT`: no complete response within `timeoutMs` (after retries), or
 *   the call's budget ran out (`totalTimeoutMs`, or the caller's `signal`
 *   aborted with a `TimeoutError`, as `AbortSignal.timeout()` does).
 * - `NETWORK`: DNS, TCP, TLS or connection failure (after retries).
 * - `HTTP_STATUS`: a non-2xx response, whatever its body said.
 * - `INVALID_JSON`: a 2xx body that is not JSON.
 * - `STATUS_NOT_SUCCESS`: JSON whose `status` is not `success`.
 * - `INVALID_RESPONSE`: JSON of any other abnormal shape (`is_virus` missing or
 *   not a boolean, unknown or error fields next to a non-detection, a key
 *   given twice, nesting deeper than 512 levels, …), or a body over
 *   `maxResponseBytes`.
 * - `ABORTED`: the caller's `signal` aborted.
 * - `CIRCUIT_OPEN`: the service failed repeatedly and the circuit breaker is
 *   open; nothing was sent. Try again after the cool-down.
 * - `CREDENTIALS`: the `apiKey` provider threw, timed out or returned no key;
 *   nothing was sent.
 * - `FILE_UNREADABLE`: `scanFile` could not read the file (missing, a
 *   directory, no permission); nothing was sent.
 * - `FILE_CHANGED`: the file changed while it was read (GNU tar's "file
 *   changed as we read it": fewer bytes than its size when opened, or a
 *   size, mtime or ctime after the read different from before it); no
 *   digest was given and nothing was sent. `hashFile` rejects with it,
 *   `hashFiles` yields it as the file's `error`, `scanFile` resolves it as
 *   an `error` outcome. Hash the file again once it is still.
 *
 * None of them means "not detected": treat the file as unknown (see `decide`).
 */
export type HashScanErrorCode =
  | 'INVALID_HASH'
  | 'TIMEOUT'
  | 'NETWORK'
  | 'HTTP_STATUS'
  | 'INVALID_JSON'
  | 'STATUS_NOT_SUCCESS'
  | 'INVALID_RESPONSE'
  | 'ABORTED'
  | 'CIRCUIT_OPEN'
  | 'CREDENTIALS'
  | 'FILE_UNREADABLE'
  | 'FILE_CHANGED';

/** Fields of a {@link HashScanError}. */
export interface HashScanErrorInit extends HashScanSmsErrorInit {
  /** See {@link HashScanError.code}. */
  readonly code: HashScanErrorCode;
  /** See {@link HashScanError.hash}. */
  readonly hash?: string | undefined;
  /** See {@link HashScanError.retryAfterMs}. */
  readonly retryAfterMs?: number | undefined;
  /** See {@link HashScanError.body}; pass redacted text only. */
  readonly body?: string | undefined;
  /** See {@link HashScanError.issues}. */
  readonly issues?: readonly string[] | undefined;
}

/**
 * The one error `HashScanClient` rejects with. Switch on `code`.
 *
 * @example
 * ```ts
 * try { await client.scan(hash) }
 * catch (error) {
 *   if (error instanceof HashScanError && error.code === 'INVALID_HASH') return badRequest()
 *   throw error
 * }
 * ```
 */
export class HashScanError extends HashScanSmsError {
  static {
    brandErrorClass(HashScanError, 'HashScanError');
  }

  /** Why there is no trustworthy answer; see {@link HashScanErrorCode}. */
  readonly code: HashScanErrorCode;
  /** The hash that was looked up (lower-cased), or the raw input for `INVALID_HASH`. */
  readonly hash: string | undefined;
  /** Delay the server asked for with `Retry-After`, in ms; at most 86 400 000 (one day), whatever the server asked. */
  readonly retryAfterMs: number | undefined;
  /** The start of the response body (at most 512 characters, redacted), for tracing. */
  readonly body: string | undefined;
  /** What exactly was wrong with the response, e.g. `is_virus: expected boolean`. */
  readonly issues: readonly string[] | undefined;

  constructor(init: HashScanErrorInit) {
    super(init);
    this.code = init.code;
    this.hash = init.hash;
    this.retryAfterMs = init.retryAfterMs;
    this.body = init.body;
    this.issues = init.issues;
  }
}
