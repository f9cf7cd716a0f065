import type { HashScanFault, HashScanFaultKind } from './hash-faults.js';
import { type HashRecord, recordFor } from './records.js';
import type { SmsAccount } from './sms-service.js';

/** The sandbox's `api_key`. */
export const SANDBOX_API_KEY = 'sandbox-api-key';

/** The sandbox's system default SMS signature. */
export const SANDBOX_DEFAULT_SIGN_NAME = 'Sandbox';

/**
 * The real digests of the EICAR anti-virus test file. Only the digests are
 * kept here: the file itself would set off scanners on this package.
 */
export const EICAR_RECORD: HashRecord = Object.freeze({
  md5: '44d88612fea8a8f36de82e1278abb02f',
  sha1: '3395856ce81f2b7382dee72602f798b642f14140',
  sha256: '275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f',
  source: 'eicar',
  firstSeen: '2006-01-01 00:00:00',
  lastSeen: '2024-01-01 00:00:00',
});

/** Flagged files of the default sandbox: EICAR and two made-up samples (look them up by any digest). */
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
 * one per kind: `fa17` + zeros + the kind's position (`…0001` is `http-status`).
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

/** SHA-256 of the empty file: not flagged by the default sandbox. */
export const SANDBOX_NOT_DETECTED_HASH = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** The default templates: a verification code, a shipping notice, and one whose content is not held. */
export const SANDBOX_TEMPLATES: Readonly<Record<string, string | null>> = Object.freeze({
  // biome-ignore lint/suspicious/noTemplateCurlyInString: `${name}` is the template placeholder syntax, not JS.
  SMS_100000001: 'Your verification code is ${code}. It expires in 5 minutes.',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: same.
  SMS_100000002: 'Hello ${name}, your order ${order} has shipped.',
  SMS_100000003: null,
});

/** The default accounts: `member` (any `SignName`) and `free` (always the default signature). */
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
