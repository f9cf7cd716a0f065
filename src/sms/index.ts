export { canonicalQuery, computeSignature, percentEncode, stringToSign, verifySignature } from './signing/index.js';
