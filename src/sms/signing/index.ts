/**
 * AK/SK request signing, RPC style, signature version 1.0, HMAC-SHA1.
 * @module
 */
export { canonicalQuery } from './canonical-query.js';
export { computeSignature } from './compute-signature.js';
export { explainSignature, maskedStringToSign, type SignatureExplanation } from './explain-signature.js';
export { percentEncode } from './percent-encode.js';
export { stringToSign } from './string-to-sign.js';
export { verifySignature } from './verify-signature.js';
