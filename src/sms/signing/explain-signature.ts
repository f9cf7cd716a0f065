import { canonicalQuery } from './canonical-query.js';
import { signStringToSign } from './compute-signature.js';
import { stringToSignOf } from './string-to-sign.js';

/** Every intermediate value of one RPC (version 1.0) signature, for debugging. */
export interface SignatureExplanation {
  /** The sorted, percent-encoded parameters (`Signature` left out). */
  readonly canonicalQuery: string;
  /** `METHOD&%2F&` + the percent-encoded canonical query: what is HMAC'd. */
  readonly stringToSign: string;
  /** The base64 signature, when a secret was given. */
  readonly signature: string | undefined;
}

/**
 * Shows how a request is signed: the canonical query, the string-to-sign and
 * (given the secret) the signature, each computed once. Compare them with a
 * server's to find why a signature does not match.
 *
 * @param method - The HTTP method actually used, upper case.
 * @param params - The request parameters; `Signature` is ignored.
 * @param accessKeySecret - Optional; the signature is computed only with it.
 * @throws {@link SigningError} for input that cannot be signed.
 *
 * @example
 * ```ts
 * const { canonicalQuery, stringToSign } = explainSignature('POST', params)
 * ```
 */
export function explainSignature(
  method: 'GET' | 'POST' | (string & {}),
  params: Readonly<Record<string, string>>,
  accessKeySecret?: string,
): SignatureExplanation {
  const query = canonicalQuery(params);
  const toSign = stringToSignOf(method, query);
  return {
    canonicalQuery: query,
    stringToSign: toSign,
    signature: accessKeySecret === undefined ? undefined : signStringToSign(toSign, accessKeySecret),
  };
}

/**
 * The string-to-sign of `params` with some values masked, safe to log or
 * attach to an error: `mask(name, value)` returns the text shown instead
 * (left unencoded, so `***` stands out), or `undefined` to keep the value.
 * Everything else (order, encoding) is exactly what was signed.
 *
 * @example
 * ```ts
 * maskedStringToSign('POST', params, (name) => (name === 'PhoneNumbers' ? '***' : undefined))
 * // "POST&%2F&AccessKeyId%3D…%26PhoneNumbers%3D***%26…"
 * ```
 */
export function maskedStringToSign(
  method: 'GET' | 'POST' | (string & {}),
  params: Readonly<Record<string, string>>,
  mask: (name: string, value: string) => string | undefined,
): string {
  const shown: Record<string, string> = {};
  const masks = new Map<string, string>();
  for (const [name, value] of Object.entries(params)) {
    const masked = mask(name, value);
    if (masked === undefined) {
      shown[name] = value;
    } else {
      // A placeholder of unreserved characters survives both rounds of encoding unchanged.
      const placeholder = `MASKED${masks.size}X${'~'.repeat(3)}`;
      masks.set(placeholder, masked);
      shown[name] = placeholder;
    }
  }
  let text = stringToSignOf(method, canonicalQuery(shown));
  for (const [placeholder, masked] of masks) text = text.replace(placeholder, masked);
  return text;
}
