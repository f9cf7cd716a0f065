import type { Redactor } from '../secrets/redact.js';
import { maskedStringToSign, percentEncode } from './signing/index.js';
import { MASKED_PARAMS } from './sms-redactor.js';

/**
 * The string-to-sign of one attempt as a `SignatureDoesNotMatch` error shows
 * it: exactly what was signed, except that the values of the masked
 * parameters (phone numbers, template values, key id, security token) are
 * shown the way logs show them. Holds no secret.
 */
export function explainMismatch(method: string, params: Readonly<Record<string, string>>, redact: Redactor): string {
  const text = maskedStringToSign(method, params, (name, value) => {
    if (!Object.hasOwn(MASKED_PARAMS, name)) return undefined;
    // The redactor's own rule for `name=value`, so the error masks like the logs do.
    const prefix = `${name}=`;
    return redact(`${prefix}${percentEncode(value)}`).slice(prefix.length);
  });
  return redact(text);
}
