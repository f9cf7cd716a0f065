import { SigningError } from '../../errors/signing-error.js';
import { canonicalQuery } from './canonical-query.js';
import { percentEncode } from './percent-encode.js';

/** An upper-case HTTP method token; the server signs with the method it received, verbatim. */
const METHOD = /^[A-Z]+$/;

/**
 * Builds the RPC (version 1.0) string-to-sign:
 * `METHOD&%2F&` + percentEncode(canonicalQuery(params)).
 *
 * @param method - The HTTP method actually used, upper case (`GET` or `POST`);
 *   it is not upper-cased for you, since a wrong-case method would sign
 *   something other than what is sent.
 * @param params - The request parameters; `Signature`, if present, is ignored.
 * @returns The string-to-sign.
 * @throws {@link SigningError} for a method that is not an upper-case token,
 *   or for parameters {@link canonicalQuery} rejects.
 *
 * @example
 * ```ts
 * stringToSign('GET', { Action: 'SendSms', Timestamp: '2024-05-01T08:09:10Z' })
 * // "GET&%2F&Action%3DSendSms%26Timestamp%3D2024-05-01T08%253A09%253A10Z"
 * ```
 */
export function stringToSign(method: 'GET' | 'POST' | (string & {}), params: Readonly<Record<string, string>>): string {
  return stringToSignOf(method, canonicalQuery(params));
}

/** The string-to-sign of an already canonicalized query (computed once by callers that need both). */
export function stringToSignOf(method: string, canonical: string): string {
  if (typeof method !== 'string' || !METHOD.test(method)) {
    throw new SigningError('The HTTP method must be an upper-case token such as GET or POST');
  }
  // "%2F" is the percent-encoded path "/", fixed for RPC-style APIs.
  return `${method}&%2F&${percentEncode(canonical)}`;
}
