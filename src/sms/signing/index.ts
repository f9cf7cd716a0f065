/**
 * `hashscan-sms/signing`: the AK/SK request signing of the SMS service (RPC
 * style, signature version 1.0, HMAC-SHA1), for code that signs, verifies or
 * debugs a request without the client: a gateway checking signatures, a test
 * double, a script comparing its string-to-sign with a server's. `SmsClient`
 * signs every send by itself; a first user needs none of this.
 *
 * @example
 * ```ts
 * import { computeSignature, verifySignature } from 'hashscan-sms/signing'
 * const Signature = computeSignature('POST', params, process.env.SMS_ACCESS_KEY_SECRET!)
 * verifySignature('POST', { ...params, Signature }, process.env.SMS_ACCESS_KEY_SECRET!) // true
 * ```
 *
 * @packageDocumentation
 */
export { SigningError } from '../../errors/signing-error.js';
export { canonicalQuery } from './canonical-query.js';
export { computeSignature } from './compute-signature.js';
export { explainSignature, maskedStringToSign, type SignatureExplanation } from './explain-signature.js';
export { percentEncode } from './percent-encode.js';
export { stringToSign } from './string-to-sign.js';
export { verifySignature } from './verify-signature.js';
