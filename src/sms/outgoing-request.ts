import type { OutgoingRequest } from '../transport/call/exchange.js';
import { randomUUID } from '../util/crypto.js';
import type { SendSmsParams } from './send-request.js';
import { explainSignature, percentEncode } from './signing/index.js';
import type { SigningKeys } from './sms-credentials.js';

/**
 * The `Timestamp` common parameter: UTC, `YYYY-MM-DDThh:mm:ssZ`, no
 * milliseconds (the signing protocol's ISO 8601 profile).
 *
 * @example
 * ```ts
 * rpcTimestamp(new Date('2024-05-01T08:09:10.123Z')) // "2024-05-01T08:09:10Z"
 * ```
 */
function rpcTimestamp(now: Date = new Date()): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The HTTP methods the AK/SK mode accepts (spec part 4). */
export type SmsMethod = 'GET' | 'POST';

/** What every request carries besides the keys; built once per client. */
export interface SigningContext {
  readonly regionId: string;
  readonly version: string;
}

/** One signed attempt: the request, the signature it carries (so it can be redacted) and what was signed. */
export interface SignedRequest {
  readonly request: OutgoingRequest;
  readonly signature: string;
  /** Every signed parameter, for explaining a `SignatureDoesNotMatch`. */
  readonly params: Readonly<Record<string, string>>;
}

/**
 * Builds one attempt of a send: the common parameters with a fresh
 * `SignatureNonce` and `Timestamp` (from `now`, the clock corrected for any
 * skew), `SecurityToken` when the keys are temporary, signed with `method`
 * (the signature differs between GET and POST). GET carries everything in
 * the query of `/`; POST carries it as a form body. Values are encoded with
 * `percentEncode`, so a space is `%20`, never `+`.
 */
export function signedSendRequest(
  method: SmsMethod,
  send: SendSmsParams,
  context: SigningContext,
  keys: SigningKeys,
  now: Date = new Date(),
): SignedRequest {
  const params: Record<string, string> = {
    ...send,
    AccessKeyId: keys.accessKeyId,
    Action: 'SendSms',
    Format: 'JSON',
    RegionId: context.regionId,
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: randomUUID(),
    SignatureVersion: '1.0',
    Timestamp: rpcTimestamp(now),
    Version: context.version,
  };
  if (keys.securityToken !== undefined) params.SecurityToken = keys.securityToken;
  const { canonicalQuery, signature = '' } = explainSignature(method, params, keys.accessKeySecret);
  // The canonical query is already a valid encoding of every parameter; Signature goes last.
  const encoded = `${canonicalQuery}&Signature=${percentEncode(signature)}`;
  const request: OutgoingRequest =
    method === 'GET'
      ? { method, path: `/?${encoded}` }
      : { method, path: '/', body: encoded, headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  return { request, signature, params };
}
