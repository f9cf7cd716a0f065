import { SigningError } from '../../errors/signing-error.js';
import { hmacBytes, toBase64 } from '../../util/crypto.js';
import { stringToSign } from './string-to-sign.js';

/**
 * Computes the RPC (version 1.0, HMAC-SHA1) request signature: the base64
 * HMAC-SHA1 of {@link stringToSign}, keyed with `accessKeySecret + "&"`.
 * The secret is used as is (not percent-encoded).
 *
 * @param method - The HTTP method actually used, upper case (`GET` or `POST`).
 * @param params - The request parameters; `Signature`, if present, is ignored.
 * @param accessKeySecret - The access key secret; never echoed in errors.
 * @returns The base64 signature, to send as the `Signature` parameter.
 * @throws {@link SigningError} for an empty, non-string or malformed secret,
 *   or for input {@link stringToSign} rejects.
 *
 * @example
 * ```ts
 * const Signature = computeSignature('POST', params, process.env.SMS_ACCESS_KEY_SECRET!)
 * const body = new URLSearchParams({ ...params, Signature })
 * ```
 */
export function computeSignature(
  method: 'GET' | 'POST' | (string & {}),
  params: Readonly<Record<string, string>>,
  accessKeySecret: string,
): string {
  checkSecret(accessKeySecret);
  return hmac(stringToSign(method, params), accessKeySecret);
}

/**
 * Signs an already built string-to-sign: the base64 HMAC-SHA1 keyed with
 * `accessKeySecret + "&"`. Same checks of the secret as {@link computeSignature}.
 * @internal
 */
export function signStringToSign(toSign: string, accessKeySecret: string): string {
  checkSecret(accessKeySecret);
  return hmac(toSign, accessKeySecret);
}

function hmac(toSign: string, accessKeySecret: string): string {
  // The "&" suffix is the (empty) token-secret slot of the OAuth-1-style key.
  return toBase64(hmacBytes('sha1', `${accessKeySecret}&`, toSign));
}

function checkSecret(accessKeySecret: string): void {
  if (typeof accessKeySecret !== 'string' || accessKeySecret === '') {
    throw new SigningError('The access key secret must be a non-empty string', 'accessKeySecret');
  }
  // Node would silently turn a lone surrogate into U+FFFD, signing with a key the server doesn't hold.
  if (!accessKeySecret.isWellFormed()) {
    throw new SigningError(
      'The access key secret contains a lone UTF-16 surrogate and cannot be used',
      'accessKeySecret',
    );
  }
}
