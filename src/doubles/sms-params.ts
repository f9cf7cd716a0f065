import type { ServiceRequest } from './service-handler.js';

const FORM = 'application/x-www-form-urlencoded';

/**
 * The parameters of an SMS request: the query string and, for a POST with a
 * form content type, the form fields. A name given twice keeps its first
 * value (query before form). Both are decoded the form way (`+` is a space),
 * which is how the vendor's servers read them before checking the signature.
 */
export function readSmsParams(request: ServiceRequest): Readonly<Record<string, string>> {
  const params: Record<string, string> = {};
  const add = (source: URLSearchParams): void => {
    for (const [name, value] of source) if (!Object.hasOwn(params, name)) params[name] = value;
  };
  add(request.url.searchParams);
  const contentType = request.headers.get('content-type') ?? '';
  if (request.method === 'POST' && contentType.toLowerCase().startsWith(FORM)) {
    add(new URLSearchParams(request.body));
  }
  return params;
}
