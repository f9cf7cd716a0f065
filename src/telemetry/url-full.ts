/*
 * `url.full` as the OpenTelemetry HTTP conventions want it: the values of
 * sensitive query parameters replaced by `REDACTED`. Imports the package's
 * URL parameter redaction only.
 */
import { redactUrlParams, SECRET_QUERY_PARAMS } from '../secrets/redact-url-params.js';

/**
 * Query parameters whose values never reach a span: the conventions' own
 * list covers `Signature`, `AccessKeyId` and `SecurityToken`, not `api_key`;
 * the phone numbers and template variables of a GET send are personal data.
 */
const SPAN_REDACTED_PARAMS: readonly string[] = [
  ...SECRET_QUERY_PARAMS,
  'AccessKeyId',
  'SecurityToken',
  'PhoneNumbers',
  'TemplateParam',
];

const USER_INFO = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i;

/** The URL with the values of sensitive parameters (and any user info) replaced by `REDACTED`. */
export function urlFull(url: string): string {
  return redactUrlParams(url.replace(USER_INFO, '$1REDACTED:REDACTED@'), SPAN_REDACTED_PARAMS);
}
