/*
 * `url.full` as the OpenTelemetry HTTP conventions want it: the values of
 * sensitive query parameters replaced by `REDACTED`. Pure; imports nothing.
 */

/**
 * Query parameters whose values never reach a span: the conventions' own
 * list covers `Signature`, `AccessKeyId` and `SecurityToken`, not `api_key`;
 * the phone numbers and template variables of a GET send are personal data.
 */
const SENSITIVE = ['api_key', 'Signature', 'AccessKeyId', 'SecurityToken', 'PhoneNumbers', 'TemplateParam'];

const QUERY_VALUE = new RegExp(`([?&])(${SENSITIVE.join('|')})=[^&#]*`, 'g');
const USER_INFO = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i;

/** The URL with the values of sensitive parameters (and any user info) replaced by `REDACTED`. */
export function urlFull(url: string): string {
  return url.replace(USER_INFO, '$1REDACTED:REDACTED@').replace(QUERY_VALUE, '$1$2=REDACTED');
}
