import { ConfigurationError } from '../errors/configuration-error.js';

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

/** True for `localhost`, `127.0.0.0/8` and `[::1]`: the only hosts plain HTTP may reach. */
function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * Checks a base URL and returns it without a trailing slash, ready to have a
 * path such as `/hash_scan` appended.
 *
 * Only `https:` is accepted; `http:` is accepted for loopback hosts so local
 * sandboxes work. There is no fallback to an insecure transport. Credentials,
 * a query or a fragment in the base URL are refused: they would leak into
 * logs or be silently dropped.
 *
 * @throws {ConfigurationError} with `option` set to `option`.
 */
export function parseBaseUrl(value: string, option = 'baseUrl'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(option, 'is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new ConfigurationError(
      option,
      `must use https: (got ${url.protocol}); plain http: is accepted only for loopback hosts (localhost, 127.0.0.0/8, [::1])`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new ConfigurationError(option, 'must not contain credentials; pass keys through their own options');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ConfigurationError(option, 'must not contain a query string or a fragment');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
