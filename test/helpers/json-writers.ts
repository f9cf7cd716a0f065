import { inspect } from 'node:util';

/**
 * A JSON body as a PHP, a .NET or a JavaScript service writes it: PHP's
 * `json_encode` escapes `/` as `\/`, .NET's System.Text.Json escapes `+` and
 * `=` (among others) as `\u002B` and `\u003D`. Secrets in base64 hold all three.
 */
export const JSON_WRITERS = {
  php: (body: unknown) => JSON.stringify(body).replaceAll('/', '\\/'),
  dotnet: (body: unknown) => JSON.stringify(body).replaceAll('+', '\\u002B').replaceAll('=', '\\u003D'),
  plain: (body: unknown) => JSON.stringify(body),
} as const;

/** Every way a caller may look at a value: JSON, `util.inspect` (hidden fields too) and `String()`. */
export const views = (value: unknown): string =>
  [JSON.stringify(value), inspect(value, { depth: 10, showHidden: true }), String(value)].join('\n');
