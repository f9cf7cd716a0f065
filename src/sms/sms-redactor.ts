import { createRedactor, type MaskStyle, type Redactor } from '../secrets/redact.js';
import { followSecrets, SecretSet } from '../secrets/secret-set.js';
import { percentEncode } from './signing/index.js';

/**
 * Parameters masked wherever they appear as `name=value`. Besides the
 * signature and the key id, the template variables (often a one-time code)
 * and the phone numbers (personal data) stay out of logs.
 */
export const MASKED_PARAMS: Readonly<Record<string, MaskStyle>> = {
  Signature: 'full',
  AccessKeyId: 'partial',
  TemplateParam: 'full',
  PhoneNumbers: 'partial',
  SecurityToken: 'full',
};

/** Below this length a value is too likely to match ordinary words (the transport redactor's own rule). */
const MIN_MASKED_LENGTH = 4;

/** What an SMS client hides; both sets grow when a credential provider rotates the keys. */
export interface SmsSecrets {
  /** Access key secrets and security tokens. */
  readonly secrets: SecretSet;
  /** Access key ids: shown only masked (`LTAI***`). */
  readonly keyIds: SecretSet;
}

/**
 * The redactor of an SMS client: hides every secret and token it has used,
 * masks the parameters above, and masks each key id even outside an
 * `AccessKeyId=` pair (a service may echo its string-to-sign, where it stands
 * as `AccessKeyId%3D…`). It follows rotation: keys added to `keys` later are
 * masked from then on.
 */
export function createSmsRedactor(keys: SmsSecrets): Redactor {
  const base = createRedactor({ secrets: keys.secrets, params: MASKED_PARAMS });
  const keyIdSpellings = followSecrets(keys.keyIds, (ids) =>
    ids
      .filter((id) => id.length >= MIN_MASKED_LENGTH)
      .flatMap((id) => {
        const masked = maskAccessKeyId(base, id);
        const once = percentEncode(id);
        return [...new Set([encodeURIComponent(once), once, id])].map((spelling) => [spelling, masked] as const);
      })
      // Longest first, so an encoded spelling is masked whole rather than around its raw core.
      .sort((a, b) => b[0].length - a[0].length),
  );
  return (text) => keyIdSpellings().reduce((out, [spelling, masked]) => out.replaceAll(spelling, masked), base(text));
}

/** A send's redactor: the client's, plus the signatures this send produced (added as they are made). */
export function withSignatures(redact: Redactor, signatures: SecretSet): Redactor {
  const hideSignatures = createRedactor({ secrets: signatures, params: {} });
  return (text) => redact(hideSignatures(text));
}

/** The key id as logs show it (`LTAI***`, or `***` when short), rendered by the redactor's own `AccessKeyId` rule. */
export function maskAccessKeyId(redact: Redactor, accessKeyId: string): string {
  const prefix = 'AccessKeyId=';
  return redact(`${prefix}${percentEncode(accessKeyId)}`).slice(prefix.length);
}

/** A fresh, unbounded-for-the-send set of signatures. */
export function signatureSet(): SecretSet {
  return new SecretSet([], Number.POSITIVE_INFINITY);
}
