/**
 * What kind of failure a service `Code` reports, so callers can react by
 * kind (back off, fix the number, fix the template, top up, fix the keys)
 * without knowing every code. The table follows the vendor protocol's public
 * `SendSms` and common (RPC gateway) error codes, plus the spec's own codes
 * and those of this package's sandbox.
 * @module
 */

/**
 * The kind of failure an {@link SmsError} reports.
 *
 * - `rate_limit`: a send-frequency or daily/monthly quota was hit. Send later.
 * - `recipient`: the phone numbers are malformed, too many, or blocked.
 * - `content`: template, signature name (`SignName`) or template parameters.
 * - `account`: balance, subscription, permissions (RAM) of the account.
 * - `auth`: signature, key, timestamp, nonce or security token.
 * - `unknown`: any other code. Never read as retryable.
 */
export type SmsErrorCategory = 'rate_limit' | 'recipient' | 'content' | 'account' | 'auth' | 'unknown';

const RATE_LIMIT = [
  'isv.BUSINESS_LIMIT_CONTROL',
  'isv.DAY_LIMIT_CONTROL',
  'isv.MONTH_LIMIT_CONTROL',
  'Throttling',
  'Throttling.User',
  'Throttling.Api',
  // This package's own sending limits (`limits`).
  'SEND_LIMITED',
  'LIMITS_UNAVAILABLE',
  // OtpVerifier's own refusals: send later, not again now.
  'DESTINATION_SUSPENDED',
  'RESEND_COOLDOWN',
  'VERIFICATION_UNAVAILABLE',
] as const;

const RECIPIENT = [
  'isv.MOBILE_NUMBER_ILLEGAL',
  'isv.MOBILE_COUNT_OVER_LIMIT',
  'isv.BLACK_KEY_CONTROL_LIMIT',
  'isv.DOMESTIC_NUMBER_NOT_SUPPORTED',
  'MissingPhoneNumbers',
  // This package's own destination rules (`destinations`).
  'DESTINATION_BLOCKED',
] as const;

const CONTENT = [
  'InvalidParameter',
  'isv.SMS_TEMPLATE_ILLEGAL',
  'isv.SMS_SIGNATURE_ILLEGAL',
  'isv.SMS_SIGN_ILLEGAL',
  'isv.SIGN_STATE_ILLEGAL',
  'isv.SMS_SIGNATURE_SCENE_ILLEGAL',
  'isv.SMS_CONTENT_ILLEGAL',
  'isv.TEMPLATE_MISSING_PARAMETERS',
  'isv.TEMPLATE_PARAMS_ILLEGAL',
  'isv.INVALID_JSON_PARAM',
  'isv.INVALID_PARAMETERS',
  'isv.PARAM_LENGTH_LIMIT',
  'isv.PARAM_NOT_SUPPORT_URL',
  'isv.EXTEND_CODE_ERROR',
  'MissingTemplateCode',
  'MissingTemplateParam',
] as const;

const ACCOUNT = [
  'isv.OUT_OF_SERVICE',
  'isv.AMOUNT_NOT_ENOUGH',
  'isp.RAM_PERMISSION_DENY',
  'isv.PRODUCT_UN_SUBSCRIPT',
  'isv.PRODUCT_UNSUBSCRIBE',
  'isv.ACCOUNT_NOT_EXISTS',
  'isv.ACCOUNT_ABNORMAL',
  'isv.DENY_IP_RANGE',
] as const;

const AUTH = [
  'SignatureDoesNotMatch',
  'IncompleteSignature',
  'MissingSignature',
  'MissingAccessKeyId',
  'InvalidAccessKeyId.NotFound',
  'InvalidAccessKeyId.Inactive',
  'InvalidTimeStamp.Expired',
  'InvalidTimeStamp.Format',
  'SignatureNonceUsed',
  'InvalidSecurityToken.Expired',
  'InvalidSecurityToken.Malformed',
  'InvalidSecurityToken.MismatchWithAccessKey',
  'MissingSignatureNonce',
  // This package's own code for a credential provider that failed (nothing was sent).
  'CREDENTIALS',
] as const;

/** Every classified code, frozen; anything else is `unknown`. */
export const SMS_ERROR_CATEGORIES: ReadonlyMap<string, Exclude<SmsErrorCategory, 'unknown'>> = new Map([
  ...RATE_LIMIT.map((code) => [code, 'rate_limit'] as const),
  ...RECIPIENT.map((code) => [code, 'recipient'] as const),
  ...CONTENT.map((code) => [code, 'content'] as const),
  ...ACCOUNT.map((code) => [code, 'account'] as const),
  ...AUTH.map((code) => [code, 'auth'] as const),
]);

/**
 * The category of a service or package `code`; `unknown` for any code not
 * in the table (codes are matched exactly, case included).
 *
 * @example
 * ```ts
 * smsErrorCategory('isv.DAY_LIMIT_CONTROL') // 'rate_limit'
 * smsErrorCategory('isp.SYSTEM_ERROR')      // 'unknown'
 * ```
 */
export function smsErrorCategory(code: string): SmsErrorCategory {
  return SMS_ERROR_CATEGORIES.get(code) ?? 'unknown';
}
