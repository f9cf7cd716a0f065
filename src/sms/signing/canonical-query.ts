import { SigningError } from '../../errors/signing-error.js';
import { percentEncode } from './percent-encode.js';

/** The signature is carried among the parameters but never signs itself. */
const SIGNATURE_KEY = 'Signature';

/**
 * Builds the canonicalized query string of the RPC signature (version 1.0):
 * every parameter except `Signature`, sorted by key in UTF-16 code-unit order,
 * written as `percentEncode(key)=percentEncode(value)` and joined by `&`.
 * Empty values are kept (`OutId=`): the server signs every parameter it receives.
 *
 * @param params - The request parameters, all string-valued.
 * @returns The canonicalized query string.
 * @throws {@link SigningError} naming the parameter when a value is not a
 *   string or a key or value contains a lone UTF-16 surrogate.
 *
 * @example
 * ```ts
 * canonicalQuery({ b: 'x y', Signature: 'ignored', A: '1' })  // "A=1&b=x%20y"
 * ```
 */
export function canonicalQuery(params: Readonly<Record<string, string>>): string {
  if (typeof params !== 'object' || params === null) {
    throw new SigningError('The parameters to sign must be an object of strings');
  }
  // Code-unit order, as the vendor's servers sort (Java String.compareTo);
  // localeCompare would put "aKey" before "ZKey" and break the signature.
  const keys = Object.keys(params)
    .filter((key) => key !== SIGNATURE_KEY)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let query = '';
  for (const key of keys) {
    const name = printableKey(key);
    if (query !== '') query += '&';
    query += `${percentEncode(key, name)}=${percentEncode(params[key] as string, name)}`;
  }
  return query;
}

/** Escapes lone surrogates so a bad key can still be named in an error. */
function printableKey(key: string): string {
  // JSON.stringify writes lone surrogates as \uXXXX escapes (ES2019 well-formed stringify).
  return JSON.stringify(key).slice(1, -1);
}
