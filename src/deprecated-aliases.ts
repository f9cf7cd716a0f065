/**
 * The root entry's deprecated names. Each is the very function its new entry exports (the same object,
 * so `===` and `instanceof` hold) or a type alias of its type: every import that worked keeps working,
 * struck through in the editor, for at least one minor release (docs/contributing.md#changing-the-public-surface).
 * It also installs the deprecated `fleet: { redis }` form of the clients (below).
 */

import { legacyRedisFleet } from './fleet/redis-fleet.js';
import { installLegacyFleet } from './fleet-plugin/fleet-plugin.js';
import type { HashAlgorithm } from './hashing/hash-algorithm.js';
import type {
  FilePath as HashingFilePath,
  HashedFile as HashingHashedFile,
  HashFilesOptions as HashingHashFilesOptions,
  UnreadableFile as HashingUnreadableFile,
} from './hashing/hash-files.js';
import { hashFiles as hashingHashFiles } from './hashing/hash-files.js';
import {
  type SignatureExplanation as SigningSignatureExplanation,
  canonicalQuery as signingCanonicalQuery,
  computeSignature as signingComputeSignature,
  explainSignature as signingExplainSignature,
  maskedStringToSign as signingMaskedStringToSign,
  percentEncode as signingPercentEncode,
  stringToSign as signingStringToSign,
  verifySignature as signingVerifySignature,
} from './sms/signing/index.js';

/**
 * `canonicalQuery` of `hashscan-sms/signing`, under its old name in the root entry.
 * @deprecated Import `canonicalQuery` from `hashscan-sms/signing`: this root alias stays for at least one minor release.
 */
export const canonicalQuery: typeof signingCanonicalQuery = signingCanonicalQuery;
/**
 * `computeSignature` of `hashscan-sms/signing`, under its old name in the root entry.
 * @deprecated Import `computeSignature` from `hashscan-sms/signing`: this root alias stays for at least one minor release.
 */
export const computeSignature: typeof signingComputeSignature = signingComputeSignature;
/**
 * `explainSignature` of `hashscan-sms/signing`, under its old name in the root entry.
 * @deprecated Import `explainSignature` from `hashscan-sms/signing`: this root alias stays for at least one minor release.
 */
export const explainSignature: typeof signingExplainSignature = signingExplainSignature;
/**
 * `maskedStringToSign` of `hashscan-sms/signing`, under its old name in the root entry.
 * @deprecated Import `maskedStringToSign` from `hashscan-sms/signing`: this root alias stays for at least one minor release.
 */
export const maskedStringToSign: typeof signingMaskedStringToSign = signingMaskedStringToSign;
/**
 * `percentEncode` of `hashscan-sms/signing`, under its old name in the root entry.
 * @deprecated Import `percentEncode` from `hashscan-sms/signing`: this root alias stays for at least one minor release.
 */
export const percentEncode: typeof signingPercentEncode = signingPercentEncode;
/**
 * `stringToSign` of `hashscan-sms/signing`, under its old name in the root entry.
 * @deprecated Import `stringToSign` from `hashscan-sms/signing`: this root alias stays for at least one minor release.
 */
export const stringToSign: typeof signingStringToSign = signingStringToSign;
/**
 * `verifySignature` of `hashscan-sms/signing`, under its old name in the root entry.
 * @deprecated Import `verifySignature` from `hashscan-sms/signing`: this root alias stays for at least one minor release.
 */
export const verifySignature: typeof signingVerifySignature = signingVerifySignature;
/**
 * `SignatureExplanation` of `hashscan-sms/signing`, under its old name in the root entry.
 * @deprecated Import `SignatureExplanation` from `hashscan-sms/signing`: this root alias stays for at least one minor release.
 */
export type SignatureExplanation = SigningSignatureExplanation;

/**
 * `hashFiles` of `hashscan-sms/hashing`, under its old name in the root entry.
 * @deprecated Import `hashFiles` from `hashscan-sms/hashing`: this root alias stays for at least one minor release.
 */
export const hashFiles: typeof hashingHashFiles = hashingHashFiles;
/**
 * `FilePath` of `hashscan-sms/hashing`, under its old name in the root entry.
 * @deprecated Import `FilePath` from `hashscan-sms/hashing`: this root alias stays for at least one minor release.
 */
export type FilePath = HashingFilePath;
/**
 * `HashedFile` of `hashscan-sms/hashing`, under its old name in the root entry.
 * @deprecated Import `HashedFile` from `hashscan-sms/hashing`: this root alias stays for at least one minor release.
 */
export type HashedFile<A extends HashAlgorithm = 'sha256', P extends FilePath = string> = HashingHashedFile<A, P>;
/**
 * `HashFilesOptions` of `hashscan-sms/hashing`, under its old name in the root entry.
 * @deprecated Import `HashFilesOptions` from `hashscan-sms/hashing`: this root alias stays for at least one minor release.
 */
export type HashFilesOptions<A extends HashAlgorithm = 'sha256'> = HashingHashFilesOptions<A>;
/**
 * `UnreadableFile` of `hashscan-sms/hashing`, under its old name in the root entry.
 * @deprecated Import `UnreadableFile` from `hashscan-sms/hashing`: this root alias stays for at least one minor release.
 */
export type UnreadableFile<P extends FilePath = string> = HashingUnreadableFile<P>;

// The deprecated `fleet: { redis }` form of HashScanClient, SmsClient and OtpVerifier: made into the plugin
// `redisFleet()` makes, here in the root entry, so the client rooms import no `fleet/` (package.json lists
// this entry under `sideEffects` so that a bundler keeps this call).
installLegacyFleet(legacyRedisFleet);
