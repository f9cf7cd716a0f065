import type { HashScanFault, HashScanFaultKind } from './hash-faults.js';
import { type HashRecord, recordFor } from './records.js';
import type { SmsAccount } from './sms-account.js';

/** The sandbox's `api_key`: `'sandbox-api-key'` (a wrong or missing key answers HTTP 401). */
export const SANDBOX_API_KEY = 'sandbox-api-key';

/** The sandbox's system default SMS signature: `'Sandbox'` (used when `SignName` is omitted, and always for free accounts). */
export const SANDBOX_DEFAULT_SIGN_NAME = 'Sandbox';

/**
 * The real digests of the EICAR anti-virus test file (source `eicar`); the file's bytes are
 * `eicarTestFile()`, exported beside this record.
 *
 * - md5 `44d88612fea8a8f36de82e1278abb02f`
 * - sha1 `3395856ce81f2b7382dee72602f798b642f14140`
 * - sha256 `275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f`
 */
export const EICAR_RECORD: HashRecord = Object.freeze({
  md5: '44d88612fea8a8f36de82e1278abb02f',
  sha1: '3395856ce81f2b7382dee72602f798b642f14140',
  sha256: '275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f',
  source: 'eicar',
  firstSeen: '2006-01-01 00:00:00',
  lastSeen: '2024-01-01 00:00:00',
});

/**
 * Flagged files of the default sandbox (look them up by any digest, any letter case):
 *
 * | source | md5 | sha256 |
 * |---|---|---|
 * | `eicar` | `44d88612fea8a8f36de82e1278abb02f` | `275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f` |
 * | `sandbox-av` (trojan) | `4fed212fa7c2a6afa34457e113e5232b` | `ec7371fb2f5a7ef1e5d548e6fd2921babcb96092dca4b25f68c6ef263a0ff334` |
 * | `sandbox-av` (ransomware) | `57c50a0c81dd3220a60291128c589d04` | `7ec10f1ab94389d2fd6970d9885f95a37ad1c9b418c5271a412b52423cdcb8f8` |
 *
 * SHA-1s: `3395856ce81f2b7382dee72602f798b642f14140`, `f74c10b94dffd28b5ab639e2a2e6b321c646cb38`,
 * `bc8a41d02a726d326b131348c643425d543f68a7`. Any other well-formed hash is not detected.
 */
export const SANDBOX_HASH_RECORDS: readonly HashRecord[] = Object.freeze([
  EICAR_RECORD,
  recordFor('hashscan-sms sandbox sample: trojan', { source: 'sandbox-av', firstSeen: '2024-03-01 08:00:00' }),
  recordFor('hashscan-sms sandbox sample: ransomware', {
    source: 'sandbox-av',
    firstSeen: '2024-05-02 09:30:00',
    lastSeen: '2024-06-30 23:59:59',
  }),
]);

/**
 * Made-up MD5-length hashes that the default sandbox answers with a fault,
 * one per kind: `fa17` + zeros + the kind's position.
 *
 * | hash | fault | client error code |
 * |---|---|---|
 * | `fa170000000000000000000000000001` | `http-status` (HTTP 503) | `HTTP_STATUS` |
 * | `fa170000000000000000000000000002` | `timeout` (never answers) | `TIMEOUT` |
 * | `fa170000000000000000000000000003` | `malformed-json` | `INVALID_JSON` |
 * | `fa170000000000000000000000000004` | `status-not-success` | `STATUS_NOT_SUCCESS` |
 * | `fa170000000000000000000000000005` | `is-virus-string` | `INVALID_RESPONSE` |
 * | `fa170000000000000000000000000006` | `extra-fields` | `INVALID_RESPONSE` |
 * | `fa170000000000000000000000000007` | `connection-error` | `NETWORK` |
 * | `fa170000000000000000000000000008` | `partial-body` | `NETWORK` |
 *
 * @example
 * ```ts
 * await expect(client.scan(SANDBOX_FAULT_HASHES.timeout)).rejects.toMatchObject({ code: 'TIMEOUT' })
 * ```
 */
export const SANDBOX_FAULT_HASHES: Readonly<Record<HashScanFaultKind, string>> = Object.freeze({
  'http-status': 'fa170000000000000000000000000001',
  timeout: 'fa170000000000000000000000000002',
  'malformed-json': 'fa170000000000000000000000000003',
  'status-not-success': 'fa170000000000000000000000000004',
  'is-virus-string': 'fa170000000000000000000000000005',
  'extra-fields': 'fa170000000000000000000000000006',
  'connection-error': 'fa170000000000000000000000000007',
  'partial-body': 'fa170000000000000000000000000008',
});

/** The default `faults` option: {@link SANDBOX_FAULT_HASHES}, each hash → its kind. */
export const SANDBOX_HASH_FAULTS: Readonly<Record<string, HashScanFault>> = Object.freeze(
  Object.fromEntries(Object.entries(SANDBOX_FAULT_HASHES).map(([kind, hash]) => [hash, kind as HashScanFaultKind])),
);

/** SHA-256 of the empty file, `e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855`: not flagged by the default sandbox. */
export const SANDBOX_NOT_DETECTED_HASH = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/**
 * The default templates (any other code answers `isv.SMS_TEMPLATE_ILLEGAL`,
 * except `SMS_500650100`, whose template is never checked):
 *
 * | code | content | `templateParam` |
 * |---|---|---|
 * | `SMS_100000001` | `Your verification code is ${code}. It expires in 5 minutes.` | `{ code: '123456' }` |
 * | `SMS_100000002` | `Hello ${name}, your order ${order} has shipped.` | `{ name: 'Ada', order: 'A-1' }` |
 * | `SMS_100000003` | not held (any object; billed 1 message per send) | `{}` |
 */
export const SANDBOX_TEMPLATES: Readonly<Record<string, string | null>> = Object.freeze({
  // biome-ignore lint/suspicious/noTemplateCurlyInString: `${name}` is the template placeholder syntax, not JS.
  SMS_100000001: 'Your verification code is ${code}. It expires in 5 minutes.',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: same.
  SMS_100000002: 'Hello ${name}, your order ${order} has shipped.',
  SMS_100000003: null,
});

/**
 * The default accounts:
 *
 * | account | `accessKeyId` | `accessKeySecret` | signature |
 * |---|---|---|---|
 * | `member` | `sandbox-access-key-id` | `sandbox-access-key-secret` | any `SignName` |
 * | `free` | `sandbox-free-access-key-id` | `sandbox-free-access-key-secret` | always `Sandbox` |
 */
export const SANDBOX_ACCOUNTS: Readonly<{
  /** Member plan: may send with any `SignName` (no `signPrefix`). */
  member: SmsAccount;
  /** Free plan: always sent with the default signature. */
  free: SmsAccount;
}> = Object.freeze({
  member: Object.freeze({
    accessKeyId: 'sandbox-access-key-id',
    accessKeySecret: 'sandbox-access-key-secret',
    plan: 'member',
  }),
  free: Object.freeze({
    accessKeyId: 'sandbox-free-access-key-id',
    accessKeySecret: 'sandbox-free-access-key-secret',
    plan: 'free',
  }),
});

/** {@link SANDBOX_ACCOUNTS} as the `accounts` option wants them. */
export const SANDBOX_SMS_ACCOUNTS: readonly SmsAccount[] = Object.freeze([
  SANDBOX_ACCOUNTS.member,
  SANDBOX_ACCOUNTS.free,
]);
