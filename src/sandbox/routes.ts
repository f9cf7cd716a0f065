/**
 * Which sandbox service a path belongs to, and the answer for a request no
 * service takes, in the error shape of the service it looks meant for.
 * @module
 */
import { jsonResponse, type ServiceResponse } from '../doubles/service-handler.js';

/** A service of the sandbox. */
export type SandboxService = 'hashscan' | 'sms';

/**
 * The spec's addresses (`{base}/` for SMS, `{base}/hash_scan` for the lookup)
 * and the prefixed ones of earlier versions (`/sms/`, `/hashscan/hash_scan`).
 */
const ROUTES: ReadonlyMap<string, SandboxService> = new Map([
  ['/', 'sms'],
  ['/sms', 'sms'],
  ['/sms/', 'sms'],
  ['/hash_scan', 'hashscan'],
  ['/hashscan/hash_scan', 'hashscan'],
]);

/** The service at `pathname`, if any. */
export function serviceAt(pathname: string): SandboxService | undefined {
  return ROUTES.get(pathname);
}

/** A lookup names `hash` or `api_key`, or a path ending in `hash_scan`; anything else is taken for SMS. */
function looksLikeLookup(url: URL): boolean {
  return url.searchParams.has('hash') || url.searchParams.has('api_key') || /hash_scan\/?$/.test(url.pathname);
}

/**
 * An error answer for a request the sandbox will not serve, in the shape of
 * the service it was meant for: `{Code, Message, RequestId: ""}` for SMS,
 * `{status: "error", message}` for the lookup, so every client can read it.
 */
export function refusal(
  url: URL,
  status: number,
  code: string,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): ServiceResponse {
  const body = looksLikeLookup(url) ? { status: 'error', message } : { Code: code, Message: message, RequestId: '' };
  return jsonResponse(status, body, headers);
}
