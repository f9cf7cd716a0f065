/**
 * Whether a failed request may have reached the server.
 * - `connect`: it surely did not (DNS failure, refused connection, TLS
 *   handshake failure): safe to re-send even a non-idempotent request.
 * - `unknown`: the connection was up when it failed (reset, closed mid-body),
 *   so the server may have acted on it.
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
const TLS = /^(CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_)/;

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

/**
 * Classifies an error thrown by `fetch` or while reading a body. The
 * description may quote the error's own text: redact it before showing it.
 */
export function classifyNetworkFailure(error: unknown): NetworkFailure {
  const systemCode = systemCodeOf(error);
  if (systemCode === undefined) {
    return { phase: 'unknown', systemCode, description: `network error (${innermostMessage(error)})` };
  }
  if (DNS.has(systemCode)) return { phase: 'connect', systemCode, description: `DNS lookup failed (${systemCode})` };
  if (CONNECT.has(systemCode))
    return { phase: 'connect', systemCode, description: `connection failed (${systemCode})` };
  if (TLS.test(systemCode))
    return { phase: 'connect', systemCode, description: `TLS handshake failed (${systemCode})` };
  return { phase: 'unknown', systemCode, description: `connection lost (${systemCode})` };
}
