import { isTlsCode, TLS_HANDSHAKE_CODES } from './handshake-codes.js';
import { type RequestWritten, requestWrittenOf } from './request-written.js';

/**
 * Whether a failed request may have reached the server.
 * - `connect`: it surely did not (DNS failure, refused connection, TLS
 *   handshake failure, or the dispatcher never gave it a socket): safe to
 *   re-send even a non-idempotent request.
 * - `unknown`: the connection was up when it failed (reset, closed mid-body,
 *   a TLS record that failed after the handshake), so the server may have
 *   acted on it.
 */
export type FailurePhase = 'connect' | 'unknown';

/** What a network failure was, read off the error chain of `fetch`. */
export interface NetworkFailure {
  readonly phase: FailurePhase;
  /** The system or undici code, e.g. `ECONNREFUSED`, `ENOTFOUND`, `CERT_HAS_EXPIRED`. */
  readonly systemCode: string | undefined;
  /** A short description for messages, e.g. `DNS lookup failed`. */
  readonly description: string;
}

const DNS = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA']);
const CONNECT = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

/** Finds the first string `code` along an error's `cause` chain. */
function systemCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The message of the innermost error of a `cause` chain (`fetch failed` says little). */
function innermostMessage(error: unknown): string {
  let current: unknown = error;
  let message = 'unknown failure';
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    message = current.message;
    current = current.cause;
  }
  return message;
}

/** What a code alone says; only codes that prove nothing was written are `connect`. */
function classifyCode(systemCode: string): NetworkFailure {
  if (DNS.has(systemCode)) return { phase: 'connect', systemCode, description: `DNS lookup failed (${systemCode})` };
  if (CONNECT.has(systemCode))
    return { phase: 'connect', systemCode, description: `connection failed (${systemCode})` };
  if (TLS_HANDSHAKE_CODES.has(systemCode))
    return { phase: 'connect', systemCode, description: `TLS handshake failed (${systemCode})` };
  if (isTlsCode(systemCode))
    return {
      phase: 'unknown',
      systemCode,
      description: `TLS failure on a connection that may have carried the request (${systemCode})`,
    };
  return { phase: 'unknown', systemCode, description: `connection lost (${systemCode})` };
}

/** The dispatcher's own fact overrides what the code suggests, both ways. */
function withFact(failure: NetworkFailure, written: RequestWritten): NetworkFailure {
  if (written === undefined || (failure.phase === 'connect') === !written) return failure;
  if (written) {
    return {
      ...failure,
      phase: 'unknown',
      description: `${failure.description} after the request was handed to the connection`,
    };
  }
  return { ...failure, phase: 'connect', description: `${failure.description} before the request was written` };
}

/**
 * Classifies an error thrown by `fetch`, the dispatcher, or while reading a
 * body. Where the dispatcher knows whether the request reached a socket, that
 * fact decides; otherwise only codes that prove nothing was written (DNS,
 * refused connection, TLS handshake) are `connect`. The description may
 * quote the error's own text: redact it before showing it.
 */
export function classifyNetworkFailure(error: unknown): NetworkFailure {
  const systemCode = systemCodeOf(error);
  const failure: NetworkFailure =
    systemCode === undefined
      ? { phase: 'unknown', systemCode, description: `network error (${innermostMessage(error)})` }
      : classifyCode(systemCode);
  return withFact(failure, requestWrittenOf(error));
}
