import { createRedactor, type MaskStyle, type Redactor } from '../transport/redact.js';
import { percentEncode } from './signing/index.js';

/**
 * Parameters masked wherever they appear as `name=value`. Besides the
 * signature and the key id, the template variables (often a one-time code)
 * and the phone numbers (personal data) stay out of logs.
 */
const MASKED_PARAMS: Readonly<Record<string, MaskStyle>> = {
  Signature: 'full',
  AccessKeyId: 'partial',
  TemplateParam: 'full',
  PhoneNumbers: 'partial',
};

/** Below this length a value is too likely to match ordinary words (the transport redactor's own rule). */
const MIN_MASKED_LENGTH = 4;

/**
 * The redactor of an SMS client: hides the secret and every signature
 * produced so far, masks the parameters above, and masks the key id even
 * outside an `AccessKeyId=` pair (a service may echo its string-to-sign,
 * where it stands as `AccessKeyId%3D…`).
 */
export function createSmsRedactor(
  accessKeyId: string,
  accessKeySecret: string,
  signatures: readonly string[] = [],
): Redactor {
  const base = createRedactor({ secrets: [accessKeySecret, ...signatures], params: MASKED_PARAMS });
  if (accessKeyId.length < MIN_MASKED_LENGTH) return base;
  const masked = maskAccessKeyId(base, accessKeyId);
  const once = percentEncode(accessKeyId);
  // Longest first, so an encoded spelling is masked whole rather than around its raw core.
  const spellings = [...new Set([encodeURIComponent(once), once, accessKeyId])].sort((a, b) => b.length - a.length);
  return (text) => spellings.reduce((out, spelling) => out.replaceAll(spelling, masked), base(text));
}

/** The key id as logs show it (`LTAI***`, or `***` when short), rendered by the redactor's own `AccessKeyId` rule. */
export function maskAccessKeyId(redact: Redactor, accessKeyId: string): string {
  const prefix = 'AccessKeyId=';
  return redact(`${prefix}${percentEncode(accessKeyId)}`).slice(prefix.length);
}
