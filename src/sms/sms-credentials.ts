import { requiredSetting } from '../config/settings.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import { type CheckedCredential, CredentialSource, type ExpiryTime, readExpiry } from '../secrets/credentials.js';
import type { Redactor } from '../secrets/redact.js';
import type { SmsSecrets } from './sms-redactor.js';

/**
 * Credentials an SMS client signs with. `securityToken` comes with temporary
 * credentials (an STS role session): it is sent, signed, as the vendor
 * protocol's `SecurityToken` common parameter.
 *
 * @example
 * ```ts
 * { accessKeyId: 'STS.NUx…', accessKeySecret: '…', securityToken: 'CAIS…', expiresAt: '2030-01-01T00:00:00Z' }
 * ```
 */
export interface SmsCredentials {
  /** Access key id, sent as `AccessKeyId`. */
  readonly accessKeyId: string;
  /** Access key secret; signs, never sent. */
  readonly accessKeySecret: string;
  /** STS security token, sent as `SecurityToken`. */
  readonly securityToken?: string | undefined;
  /**
   * When these credentials stop being valid; they are fetched again 10 s
   * before. Without it a provider is asked again after 5 minutes.
   */
  readonly expiresAt?: ExpiryTime | undefined;
}

/** A function that gives the current credentials (a secrets manager, an STS call); see {@link SmsCredentials}. */
export type SmsCredentialsProvider = () => SmsCredentials | Promise<SmsCredentials>;

/** The checked keys one attempt is signed with. */
export interface SigningKeys {
  readonly accessKeyId: string;
  readonly accessKeySecret: string;
  readonly securityToken: string | undefined;
}

/** What the SMS client options say about credentials. */
export interface SmsCredentialOptions {
  readonly accessKeyId?: string | undefined;
  readonly accessKeySecret?: string | undefined;
  readonly credentials?: SmsCredentials | SmsCredentialsProvider | undefined;
}

const isUsable = (value: unknown): value is string => typeof value === 'string' && value !== '' && value.isWellFormed();

/** Checks credentials given or provided; a message for what is wrong (values are never quoted). */
function checkCredentials(raw: unknown): CheckedCredential<SigningKeys> | string {
  if (typeof raw !== 'object' || raw === null) return 'returned no credentials';
  const given = raw as Partial<Record<keyof SmsCredentials, unknown>>;
  if (!isUsable(given.accessKeyId)) return 'returned no usable accessKeyId (a non-empty string)';
  if (!isUsable(given.accessKeySecret)) return 'returned no usable accessKeySecret (a non-empty string)';
  if (given.securityToken !== undefined && !isUsable(given.securityToken)) {
    return 'returned a securityToken that is not a non-empty string';
  }
  const expiresAt = readExpiry(given.expiresAt);
  if (expiresAt === null) return 'returned an expiresAt that is not a valid time';
  const value = Object.freeze({
    accessKeyId: given.accessKeyId,
    accessKeySecret: given.accessKeySecret,
    securityToken: given.securityToken as string | undefined,
  });
  return { value, expiresAt };
}

/**
 * The credential source of an SMS client: `credentials` (an object or a
 * provider), else `accessKeyId`/`accessKeySecret`, else the environment.
 * Every key it yields joins `keys`, so the client's redactor masks it.
 */
export function smsCredentialSource(
  options: SmsCredentialOptions,
  keys: SmsSecrets,
  context: { readonly redact: Redactor; readonly timeoutMs: number },
): CredentialSource<SigningKeys> {
  const accept = (value: SigningKeys): void => {
    keys.secrets.add(value.accessKeySecret);
    if (value.securityToken !== undefined) keys.secrets.add(value.securityToken);
    keys.keyIds.add(value.accessKeyId);
  };
  const { credentials } = options;
  if (credentials !== undefined) {
    if (options.accessKeyId !== undefined || options.accessKeySecret !== undefined) {
      throw new ConfigurationError('credentials', 'cannot be combined with `accessKeyId`/`accessKeySecret`');
    }
    if (typeof credentials === 'function') {
      return CredentialSource.provided<SigningKeys>(credentials, {
        option: 'credentials',
        check: checkCredentials,
        accept,
        ...context,
      });
    }
    const checked = checkCredentials(credentials);
    if (typeof checked === 'string') throw new ConfigurationError('credentials', checked.replace('returned', 'has'));
    accept(checked.value);
    return CredentialSource.fixed(checked.value);
  }
  const accessKeyId = fixedKey(requiredSetting(options.accessKeyId, 'accessKeyId', 'SMS_ACCESS_KEY_ID'), 'accessKeyId');
  const accessKeySecret = fixedKey(
    requiredSetting(options.accessKeySecret, 'accessKeySecret', 'SMS_ACCESS_KEY_SECRET'),
    'accessKeySecret',
  );
  const value: SigningKeys = Object.freeze({ accessKeyId, accessKeySecret, securityToken: undefined });
  accept(value);
  return CredentialSource.fixed(value);
}

function fixedKey(value: string, option: string): string {
  if (!value.isWellFormed()) throw new ConfigurationError(option, 'contains a lone UTF-16 surrogate');
  return value;
}
