import type { CanonicalPhone, PhoneRegion } from '../phone/canonical-phone.js';
import { invalidParameter, signableString } from './invalid-parameter.js';
import { checkRecipients } from './phone-numbers.js';
import { guarded, readField } from './read-field.js';
import { normalizeTemplateParam, type TemplateParams } from './template-param.js';

/**
 * One SMS send: a template, its variables and the recipients.
 *
 * @example
 * ```ts
 * await sms.send({
 *   phoneNumbers: ['13800000000', '13900000000'],
 *   templateCode: 'SMS_123456789',
 *   templateParam: { code: '123456' },
 *   signName: 'Acme',
 * })
 * ```
 */
export interface SendSmsRequest {
  /**
   * Exactly one phone number as a string, or several as an array (1 to 1000
   * distinct numbers). A string is never split: `'138…,139…'` is refused, so
   * text typed by an end user cannot fan a message out to several phones.
   * Each number is read as a national number of the client's `defaultRegion`
   * unless it carries a country calling code (`+86…`, `0086…`, `86…`);
   * spaces, dashes, brackets and full-width digits are accepted. Two
   * spellings of one phone are one number (a repeat is refused), and each
   * number is sent in one form (a mainland number as its 11 digits, any other
   * as country code and number, digits only). A number that cannot be read,
   * or whose length is not possible for its country, is refused client-side
   * with `InvalidParameter` naming `phoneNumbers` or `phoneNumbers[i]`.
   */
  readonly phoneNumbers: string | readonly string[];
  /** Template code, e.g. `SMS_123456789` (`SMS_500650100` checks only the signature, not the template). */
  readonly templateCode: string;
  /**
   * Template variables: an object, sent as JSON with every value as a
   * string (finite numbers and booleans converted: `7` → `"7"`, `true` →
   * `"true"`), or the JSON text of an object whose values are all strings
   * (sent verbatim). Anything else (`NaN`, `Infinity`, `null`, a bigint, a
   * nested object or array) is refused client-side with `InvalidParameter`
   * naming the variable, before any request. Use `{}` for a template without
   * variables.
   */
  readonly templateParam: TemplateParams | string;
  /**
   * SMS signature. Left out of the request when omitted or empty: the
   * service then applies the account's signature (free users always get the
   * system default signature).
   */
  readonly signName?: string | undefined;
  /**
   * Your own correlation id (the vendor protocol's `OutId`). Left out when
   * omitted or empty. The service's specification does not list it, so it
   * may be ignored.
   */
  readonly outId?: string | undefined;
}

/** The business parameters of `SendSms`, exactly as they are signed and sent. */
export interface SendSmsParams {
  readonly PhoneNumbers: string;
  readonly TemplateCode: string;
  readonly TemplateParam: string;
  readonly SignName?: string;
  readonly OutId?: string;
}

/** A checked send: its parameters, and its recipients as the limits and destination rules see them. */
export interface CheckedSend {
  readonly params: SendSmsParams;
  /** Each recipient, canonical, in the order given. */
  readonly phones: readonly CanonicalPhone[];
  /** Whether `phoneNumbers` was one number given as a string. */
  readonly single: boolean;
}

/** The only fields a request may have: nothing else can reach the wire (see the routing rules, spec part 4). */
const FIELDS: ReadonlySet<string> = new Set(['phoneNumbers', 'templateCode', 'templateParam', 'signName', 'outId']);

/**
 * Validates a send request and turns it into signed-parameter form.
 *
 * @throws {SmsError} `InvalidParameter` with `parameter` naming the field,
 *   `outcome: 'not_sent'`: no request is made.
 */
export function toSendParams(request: SendSmsRequest, region: PhoneRegion): CheckedSend {
  if (typeof request !== 'object' || request === null) {
    throw invalidParameter('request', 'must be an object');
  }
  // A Proxy can throw from `ownKeys`: bad input, reported as such.
  const keys = guarded('request', () => Object.keys(request));
  for (const key of keys) {
    if (!FIELDS.has(key)) {
      throw invalidParameter(key, `is not a request field (expected one of ${[...FIELDS].join(', ')})`);
    }
  }
  const field = (name: keyof SendSmsRequest): unknown => readField(request, name, name);
  const signName = optional(field('signName'), 'signName');
  const outId = optional(field('outId'), 'outId');
  const recipients = checkRecipients(field('phoneNumbers'), region);
  const params: SendSmsParams = {
    PhoneNumbers: recipients.param,
    TemplateCode: required(field('templateCode'), 'templateCode'),
    TemplateParam: normalizeTemplateParam(field('templateParam')).json,
    ...(signName !== undefined && { SignName: signName }),
    ...(outId !== undefined && { OutId: outId }),
  };
  return { params, phones: recipients.phones, single: recipients.single };
}

function required(value: unknown, parameter: string): string {
  if (value === undefined) throw invalidParameter(parameter, 'is required');
  const text = signableString(value, parameter);
  if (text.trim() === '') throw invalidParameter(parameter, 'must not be empty');
  return text;
}

/** Empty optional parameters are left out rather than signed as empty. */
function optional(value: unknown, parameter: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  return signableString(value, parameter);
}
