/**
 * Refuses what a web page on another origin makes a browser send to the
 * sandbox. Its keys are public test keys, so a page the developer happens
 * to open could otherwise sign and post SMS sends of its own (a simple form
 * POST needs no CORS preflight), flood the inbox and plant a code of its
 * choice. A browser says where a request comes from (`Origin`,
 * `Sec-Fetch-Site`); the package's clients, curl and undici send neither,
 * and keep working.
 * @module
 */
import type { IncomingHttpHeaders } from 'node:http';
import { jsonResponse, type ServiceResponse } from '../doubles/service-handler.js';
import { isInboxPath, isLoopbackHost } from './inbox/index.js';
import { refusal } from './routes.js';

/** What the guard reads of a request. */
export interface GuardedRequest {
  readonly method: string;
  readonly pathname: string;
  readonly headers: IncomingHttpHeaders;
}

/** The inbox page itself: static, no data in it; everything it loads then is same-origin. */
const INBOX_PAGE = new Set(['/_inbox', '/_inbox/']);

const one = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value.join(',') : value;

/** `http://` and the `Host` the request names, as an origin (`undefined` when `Host` is malformed). */
function ownOrigin(host: string | undefined): string | undefined {
  if (host === undefined) return undefined;
  try {
    return new URL(`http://${host}`).origin;
  } catch {
    return undefined;
  }
}

/**
 * Why a browser request must be refused, or `undefined` to serve it.
 *
 * - `Origin` other than the sandbox's own (`http://` + the `Host` asked for;
 *   `null` included) → refused.
 * - Else `Sec-Fetch-Site` other than `same-origin` or `none` (typed in the
 *   address bar) → refused. `same-site` is refused too: for a browser, a page
 *   on another port of the same host (`http://127.0.0.1:3000`) is the same
 *   site as the sandbox on `:8787`, and is as foreign to it.
 * - A top-level GET navigation to the inbox page is let through whatever
 *   its origin (a link to it from a dev app): the page holds no data.
 * - On loopback, a browser request must name a loopback `Host` as well: a
 *   page whose domain was rebound to 127.0.0.1 is "same-origin" to itself.
 * - No `Origin` and no `Sec-Fetch-Site`: not a browser (or one too old to
 *   say), served as before.
 */
export function crossSiteReason(request: GuardedRequest, loopback: boolean): string | undefined {
  const origin = one(request.headers.origin);
  const site = one(request.headers['sec-fetch-site'])?.trim().toLowerCase();
  if (origin === undefined && site === undefined) return undefined;
  const navigation =
    (request.method === 'GET' || request.method === 'HEAD') &&
    one(request.headers['sec-fetch-mode']) === 'navigate' &&
    INBOX_PAGE.has(request.pathname);
  if (navigation) return undefined;
  const host = request.headers.host;
  if (origin !== undefined && origin !== ownOrigin(host)) {
    return `a request from the web page at ${origin.slice(0, 200)}, another origin`;
  }
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return `a browser request from another ${site === 'same-site' ? 'origin of the same site' : 'site'} (Sec-Fetch-Site: ${site.slice(0, 40)})`;
  }
  if (loopback && !isLoopbackHost(host)) return 'a browser request naming a non-loopback Host (DNS rebinding)';
  return undefined;
}

/**
 * The 403 answer, in the error shape of what was asked (the inbox's
 * `{error, message}`, or the service's). `connection: close` drops the
 * unread body with the socket.
 */
export function crossSiteRefusal(url: URL, reason: string): ServiceResponse {
  const message = `refused: ${reason}. The sandbox answers its own pages and non-browser clients (no Origin or Sec-Fetch-Site header) only`;
  const headers = { connection: 'close', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
  if (isInboxPath(url.pathname)) return jsonResponse(403, { error: 'cross_site', message }, headers);
  return refusal(url, 403, 'Forbidden.CrossSite', message, headers);
}
