import { isBudgetMs } from '../transport/call/deadline.js';
import type { AbortLike } from '../util/abort-like.js';
import { invalidParameter, signableString } from './invalid-parameter.js';
import type { SmsMethod } from './outgoing-request.js';
import { guarded, readField } from './read-field.js';

const METHODS: ReadonlySet<unknown> = new Set<SmsMethod>(['GET', 'POST']);
/** Longest `caller`: room for an IPv6 address, a user id or a session id, not for a document. */
const MAX_CALLER_LENGTH = 256;

/** Per-call options of {@link SmsClient.send}. */
export interface SendSmsOptions {
  /** Overrides the client's `method` for this send. */
  readonly method?: SmsMethod | undefined;
  /**
   * Aborts the send. An abort after the request was written rejects with
   * `ABORTED` and `outcome: 'unknown'`: the service may still deliver it.
   * A signal aborted with a `TimeoutError` (`AbortSignal.timeout()`) rejects
   * with `TIMEOUT` instead (same `outcome` rule).
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Budget of this send, every attempt and back-off included, in ms;
   * rejects `TIMEOUT` when spent. Overrides the client's `totalTimeoutMs`.
   * @defaultValue the client's `totalTimeoutMs`
   */
  readonly totalTimeoutMs?: number | undefined;
  /**
   * Who asks for this send (an IP address, a user or a session id: any
   * non-empty string of at most 256 characters), counted by
   * `limits.perCaller`. It is hashed before it becomes a key, and never
   * logged, sent, or put in an error, event or metric.
   * @defaultValue none: the send is not counted per caller
   * @example `sms.send(request, { caller: request.ip })`
   */
  readonly caller?: string | undefined;
}

/** The checked per-call options of a send. */
export interface CheckedSendOptions {
  readonly method: SmsMethod;
  /** An `AbortSignal`, or a polyfill's signal with the same shape (all the transport uses of it). */
  readonly signal: AbortSignal | undefined;
  /** This send's budget, overriding the client's `totalTimeoutMs`. */
  readonly totalTimeoutMs: number | undefined;
  readonly caller: string | undefined;
}

/** An `AbortSignal`, or anything shaped like one (a polyfill's), as the transport uses it. */
function isAbortLike(value: unknown): value is AbortLike {
  if (typeof value !== 'object' || value === null) return false;
  const signal = value as Record<string, unknown>;
  return (
    typeof signal.aborted === 'boolean' &&
    typeof signal.addEventListener === 'function' &&
    typeof signal.removeEventListener === 'function'
  );
}

/**
 * Checks the second argument of `send()`: `undefined` or an object with an
 * optional `method` (`GET`/`POST`), an optional `signal`, an optional
 * `totalTimeoutMs` and an optional `caller`.
 *
 * @throws {SmsError} `InvalidParameter` naming `options`, `method`, `signal`, `totalTimeoutMs` or `caller`
 *   (never its value); nothing is sent.
 */
export function checkSendOptions(options: unknown, defaultMethod: SmsMethod): CheckedSendOptions {
  if (options === undefined) {
    return { method: defaultMethod, signal: undefined, totalTimeoutMs: undefined, caller: undefined };
  }
  if (typeof options !== 'object' || options === null) throw invalidParameter('options', 'must be an object');
  const method = readField(options, 'method', 'method') ?? defaultMethod;
  if (!METHODS.has(method)) throw invalidParameter('method', 'must be "GET" or "POST"');
  const signal = readField(options, 'signal', 'signal');
  if (signal !== undefined && !guarded('signal', () => isAbortLike(signal))) {
    throw invalidParameter('signal', 'must be an AbortSignal');
  }
  const totalTimeoutMs = readField(options, 'totalTimeoutMs', 'totalTimeoutMs');
  if (totalTimeoutMs !== undefined && !isBudgetMs(totalTimeoutMs)) {
    throw invalidParameter('totalTimeoutMs', 'must be a whole number of milliseconds between 1 and 2147483647');
  }
  const caller = checkCaller(readField(options, 'caller', 'caller'));
  return { method: method as SmsMethod, signal: signal as AbortSignal | undefined, totalTimeoutMs, caller };
}

function checkCaller(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const caller = signableString(value, 'caller');
  if (caller.trim() === '') throw invalidParameter('caller', 'must not be empty');
  if (caller.length > MAX_CALLER_LENGTH) {
    throw invalidParameter('caller', `must be at most ${MAX_CALLER_LENGTH} characters`);
  }
  return caller;
}
