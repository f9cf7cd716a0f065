/**
 * Query parameters that carry secrets in this package's requests: the lookup
 * service's `api_key`, and the SMS `Signature` of a GET send.
 */
export const SECRET_QUERY_PARAMS: readonly string[] = Object.freeze(['api_key', 'Signature']);

/**
 * Replaces the values of secret query parameters in a URL (or a bare query
 * string such as OpenTelemetry's `url.query`) with `REDACTED`, keeping the
 * rest byte for byte. Names are compared after URL-decoding, so `api%5Fkey`
 * is caught too. Use it wherever something outside this package records
 * request URLs: an HTTP instrumentation's span attributes (`url.full`), a
 * proxy's or gateway's access log hook, your own request logging.
 *
 * @param url - a full URL, a path with a query, or a bare query string
 * @param names - parameter names to redact @defaultValue {@link SECRET_QUERY_PARAMS}
 * @example
 * ```ts
 * redactUrlParams('https://h.example/hash_scan?api_key=s3cret&hash=44d8…')
 * // 'https://h.example/hash_scan?api_key=REDACTED&hash=44d8…'
 * ```
 */
export function redactUrlParams(url: string, names: readonly string[] = SECRET_QUERY_PARAMS): string {
  const fragmentAt = url.indexOf('#');
  const main = fragmentAt < 0 ? url : url.slice(0, fragmentAt);
  const fragment = fragmentAt < 0 ? '' : url.slice(fragmentAt);
  const queryAt = main.indexOf('?');
  // Without `?`, only a bare query string (no slash, a `=`) has parameters.
  const start = queryAt >= 0 ? queryAt + 1 : main.includes('/') || !main.includes('=') ? -1 : 0;
  if (start < 0) return url;
  const redacted = main
    .slice(start)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair;
      const rawName = pair.slice(0, equals);
      return names.includes(decodeName(rawName)) ? `${rawName}=REDACTED` : pair;
    })
    .join('&');
  return `${main.slice(0, start)}${redacted}${fragment}`;
}

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
}
