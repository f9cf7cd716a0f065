/**
 * Who may read the inbox. On loopback (the default) only this machine can
 * reach it, and requests must name a loopback `Host` too, so a web page that
 * rebinds its own domain to 127.0.0.1 cannot read the codes. Bound anywhere
 * else, the inbox answers only requests that carry the token given at start.
 * @module
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList } from 'node:net';
import { ConfigurationError } from '../../errors/configuration-error.js';

/**
 * Options of the sandbox inbox (`startSandbox({ inbox })`).
 *
 * @example
 * ```ts
 * await startSandbox({ host: '0.0.0.0', inbox: { token: process.env.INBOX_TOKEN, limit: 200 } })
 * ```
 */
export interface InboxOptions {
  /** Messages kept, and lookups kept, each; the oldest go first. @defaultValue 1000 */
  readonly limit?: number | undefined;
  /**
   * A secret the inbox asks for (`Authorization: Bearer …`, or `?token=` on
   * the event stream), at least 16 characters of printable ASCII with no
   * space (`openssl rand -base64 24` makes one); any other token is refused
   * at start with a `ConfigurationError` naming `inbox.token`. Required
   * when the sandbox is bound to anything but loopback; optional on loopback.
   * @defaultValue none
   */
  readonly token?: string | undefined;
}

/** Entries of each kind the inbox keeps by default. */
export const DEFAULT_INBOX_LIMIT = 1000;
const MIN_TOKEN_CHARS = 16;
/** Visible ASCII: no space, tab, line break, control or non-ASCII character. */
const TOKEN_CHARS = /^[\x21-\x7e]+$/;

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

/** Whether a bound address (an IP, as `server.address()` gives it) is loopback. */
export function isLoopbackAddress(address: string): boolean {
  return LOOPBACK.check(address, address.includes(':') ? 'ipv6' : 'ipv4');
}

/** The inbox's settings, checked. */
export interface InboxAccess {
  readonly limit: number;
  readonly loopback: boolean;
  /** Whether requests for data must carry the token. */
  readonly tokenRequired: boolean;
  /** Answers whether a request may read or change the inbox. */
  allows(request: IncomingMessage, url: URL): boolean;
}

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** The token a request carries, from `Authorization: Bearer` or the `token` query parameter. */
function tokenOf(request: IncomingMessage, url: URL): string | undefined {
  const header = request.headers.authorization;
  const bearer = header === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  return bearer ?? url.searchParams.get('token') ?? undefined;
}

/** A `Host` header naming this machine by a loopback name or address. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  let name: string;
  try {
    name = new URL(`http://${host}`).hostname;
  } catch {
    return false;
  }
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const bare = name.startsWith('[') ? name.slice(1, -1) : name;
  return /^[\d.]+$|:/.test(bare) && isLoopbackAddress(bare);
}

/**
 * Checks the inbox options against the address the sandbox is bound to.
 * @throws {ConfigurationError} for a bad `limit` or `token`, or a sandbox
 *   bound beyond loopback without a token.
 */
export function resolveInboxAccess(options: InboxOptions, boundAddress: string): InboxAccess {
  const limit = options.limit ?? DEFAULT_INBOX_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new ConfigurationError('inbox.limit', 'must be a whole number, 1 or more');
  }
  const { token } = options;
  if (token !== undefined && (typeof token !== 'string' || token.length < MIN_TOKEN_CHARS)) {
    throw new ConfigurationError('inbox.token', `must be a string of at least ${MIN_TOKEN_CHARS} characters`);
  }
  // The page sends it as `Authorization: Bearer …`, which ends at a space and takes ASCII only: such a token could never match.
  if (token !== undefined && !TOKEN_CHARS.test(token)) {
    throw new ConfigurationError(
      'inbox.token',
      'must be printable ASCII without spaces (letters, digits, punctuation), as a Bearer token is sent',
    );
  }
  const loopback = isLoopbackAddress(boundAddress);
  if (!loopback && token === undefined) {
    throw new ConfigurationError(
      'inbox.token',
      `the sandbox is bound to ${boundAddress}, reachable from the network: its inbox needs a token of at least ${MIN_TOKEN_CHARS} characters`,
    );
  }
  const expected = token === undefined ? undefined : digest(token);
  return {
    limit,
    loopback,
    tokenRequired: expected !== undefined,
    allows(request, url) {
      if (expected === undefined) return isLoopbackHost(request.headers.host);
      const given = tokenOf(request, url);
      // Equal-length digests, compared in constant time: neither the token nor its length leaks.
      return given !== undefined && timingSafeEqual(digest(given), expected);
    },
  };
}
