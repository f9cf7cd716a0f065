import { equalBytes } from '../../util/crypto.js';
import { computeSignature } from './compute-signature.js';

const UTF8 = new TextEncoder();

/**
 * Checks the `Signature` parameter of an RPC (version 1.0, HMAC-SHA1) request
 * by recomputing it over every other parameter, in constant time. The building
 * block of a receiving service or a test double.
 *
 * @param method - The HTTP method the request arrived with, upper case.
 * @param paramsWithSignature - All received parameters, `Signature` included.
 * @param accessKeySecret - The secret on record for the request's `AccessKeyId`.
 * @returns `true` only when the signature matches; `false` for a wrong,
 *   missing or non-string signature (never throws for those).
 * @throws {@link SigningError} for input that cannot be signed at all (a bad
 *   method, a non-string value, a lone surrogate, an empty secret).
 *
 * @example
 * ```ts
 * if (!verifySignature(req.method, params, secretFor(params.AccessKeyId))) {
 *   return reply(400, { Code: 'SignatureDoesNotMatch' })
 * }
 * ```
 */
export function verifySignature(
  method: 'GET' | 'POST' | (string & {}),
  paramsWithSignature: Readonly<Record<string, string>>,
  accessKeySecret: string,
): boolean {
  const expected = UTF8.encode(computeSignature(method, paramsWithSignature, accessKeySecret));
  const received: unknown = Object.hasOwn(paramsWithSignature, 'Signature') ? paramsWithSignature.Signature : undefined;
  if (typeof received !== 'string') return false;
  // A length mismatch leaks nothing useful.
  return equalBytes(UTF8.encode(received), expected);
}
