import { invalidParameter, signableString } from './invalid-parameter.js';
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
   * One phone number, or several: an array is sent comma-joined. Empty
   * entries, and array entries holding a comma, are refused client-side.
   */
  readonly phoneNumbers: string | readonly string[];
  /** Template code, e.g. `SMS_123456789` (`SMS_500650100` checks only the signature, not the template). */
  readonly templateCode: string;
  /**
   * Template variables: an object (sent as its JSON) or the JSON text of an
   * object (sent verbatim). Anything else is refused client-side with
   * `InvalidParameter`, before any request. Use `{}` for a template without
   * variables.
   */
  readonly templateParam: TemplateParams | string;
  /**
   * SMS signature. Left out of the request when omitted or empty: the
   * service then applies the account's signature (free users always get the
   * system default signature).
   */
  readonly signName?: string;
  /**
   * Your own correlation id (the vendor protocol's `OutId`). Left out when
   * omitted or empty. The service's specification does not list it, so it
   * may be ignored.
   */
  readonly outId?: string;
}

/** The business parameters of `SendSms`, exactly as they are signed and sent. */
export interface SendSmsParams {
  readonly PhoneNumbers: string;
  readonly TemplateCode: string;
  readonly TemplateParam: string;
  readonly SignName?: string;
  readonly OutId?: string;
}

/** The only fields a request may have: nothing else can reach the wire (see the routing rules, spec part 4). */
const FIELDS: ReadonlySet<string> = new Set(['phoneNumbers', 'templateCode', 'templateParam', 'signName', 'outId']);

/**
 * Validates a send request and turns it into signed-parameter form.
 *
 * @throws {SmsError} `InvalidParameter` with `parameter` naming the field,
 *   `outcome: 'not_sent'`: no request is made.
 */
export function toSendParams(request: SendSmsRequest): SendSmsParams {
  if (typeof request !== 'object' || request === null) {
    throw invalidParameter('request', 'must be an object');
  }
  for (const key of Object.keys(request)) {
    if (!FIELDS.has(key)) {
      throw invalidParameter(key, `is not a request field (expected one of ${[...FIELDS].join(', ')})`);
    }
  }
  const signName = optional(request.signName, 'signName');
  const outId = optional(request.outId, 'outId');
  return {
    PhoneNumbers: phoneNumbers(request.phoneNumbers),
    TemplateCode: required(request.templateCode, 'templateCode'),
    TemplateParam: normalizeTemplateParam(request.templateParam).json,
    ...(signName !== undefined && { SignName: signName }),
    ...(outId !== undefined && { OutId: outId }),
  };
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

function phoneNumbers(value: unknown): string {
  if (!Array.isArray(value)) return required(value, 'phoneNumbers');
  if (value.length === 0) throw invalidParameter('phoneNumbers', 'must hold at least one phone number');
  return value
    .map((entry: unknown, index) => {
      const number = required(entry, `phoneNumbers[${index}]`);
      if (number.includes(',')) throw invalidParameter(`phoneNumbers[${index}]`, 'must be one phone number (no comma)');
      return number;
    })
    .join(',');
}
