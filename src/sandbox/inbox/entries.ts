/**
 * What the inbox shows: one entry per SMS request (accepted or refused) and
 * one per hash lookup, built from the doubles' records. Every string is cut
 * to a bound, so a flood of large sends cannot grow the inbox past
 * `limit` × a few kilobytes.
 * @module
 */
import type { RecordedRequest } from '../../doubles/request-log.js';
import type { SentMessage } from '../../doubles/sms-account.js';

/** Characters kept of any one text field; the rest is replaced by `…`. */
export const MAX_FIELD_CHARS = 4096;

/** One SMS request as the inbox shows it. */
export interface InboxMessage {
  /** Increasing from 1 for the life of the sandbox (a clear does not reset it). */
  readonly id: number;
  /** ISO 8601, when the sandbox answered. */
  readonly receivedAt: string;
  /** HTTP method of the send. */
  readonly method: string;
  /** `accepted` (answered `OK`) or `refused` (any other `Code`). */
  readonly outcome: 'accepted' | 'refused';
  /** The answer's `Code`: `OK`, or why it was refused (`SignatureDoesNotMatch`, `isv.BUSINESS_LIMIT_CONTROL`, …). */
  readonly code: string;
  /** `PhoneNumbers` split at commas (empty when the request had none). */
  readonly phoneNumbers: readonly string[];
  /** The signature applied (accepted), or the `SignName` asked for (refused), if any. */
  readonly signName: string | undefined;
  /** `TemplateCode`, if any. */
  readonly templateCode: string | undefined;
  /** `TemplateParam` as sent (JSON text), if any. */
  readonly templateParam: string | undefined;
  /** The content after substitution: accepted sends of a template whose content the sandbox holds. */
  readonly content: string | undefined;
  /** A verification code found in `TemplateParam` (`code`, `otp`, `pin`, …) or the content, for copying. */
  readonly verificationCode: string | undefined;
  /** What the send costs (accepted sends). */
  readonly billedCount: number | undefined;
  /** The `RequestId` answered (accepted sends). */
  readonly requestId: string | undefined;
  /** `SignatureDoesNotMatch` only: the string to sign the sandbox computed. */
  readonly stringToSign: string | undefined;
}

/** One hash lookup as the inbox shows it. */
export interface InboxLookup {
  /** Increasing from 1 for the life of the sandbox. */
  readonly id: number;
  /** ISO 8601, when the sandbox answered. */
  readonly receivedAt: string;
  /** The `hash` parameter as sent (possibly not a hash at all). */
  readonly hash: string | undefined;
  /** What the sandbox answered: `malicious`, `not_detected`, `unauthorized`, `invalid_hash`, `method_not_allowed`, or `fault`. */
  readonly verdict: string;
  /** The fault injected (`timeout`, `http-status`, …), if any. */
  readonly fault: string | undefined;
  /** HTTP status sent, if any (a cut or held connection sends none). */
  readonly status: number | undefined;
}

/** Cuts a string to {@link MAX_FIELD_CHARS} UTF-16 units, `…` included, never between the halves of a pair. */
export function bounded(value: string | undefined): string | undefined {
  if (value === undefined || value.length <= MAX_FIELD_CHARS) return value;
  let end = MAX_FIELD_CHARS - 1;
  const last = value.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${value.slice(0, end)}…`;
}

const CODE_NAME = /^(code|otp|pin|captcha|verif\w*|sms_?code|auth_?code)$/i;
const CODE_VALUE = /^[0-9A-Za-z]{4,10}$/;
const CODE_IN_TEXT = /(?<![0-9A-Za-z])\d{4,8}(?![0-9A-Za-z])/;

/** The verification code of a message: a parameter named like one, else the first run of 4 to 8 digits in the content. */
export function findVerificationCode(templateParam: unknown, content: string | undefined): string | undefined {
  if (typeof templateParam === 'object' && templateParam !== null && !Array.isArray(templateParam)) {
    for (const [name, value] of Object.entries(templateParam)) {
      const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
      if (CODE_NAME.test(name) && typeof text === 'string' && CODE_VALUE.test(text)) return text;
    }
  }
  return content === undefined ? undefined : CODE_IN_TEXT.exec(content)?.[0];
}

const param = (entry: RecordedRequest, name: string): string | undefined => {
  const value = Object.hasOwn(entry.params, name) ? entry.params[name] : undefined;
  return value === '' ? undefined : bounded(value);
};

/** An SMS request and, when accepted, the message the double billed. */
export function messageEntry(id: number, entry: RecordedRequest, sent: SentMessage | undefined): InboxMessage {
  const accepted = sent !== undefined && entry.outcome === 'OK';
  const content = accepted ? bounded(sent.content) : undefined;
  const phoneNumbers = accepted
    ? sent.phoneNumbers.map((number) => bounded(number) ?? '')
    : (param(entry, 'PhoneNumbers')
        ?.split(',')
        .map((number) => number.trim())
        .filter((number) => number !== '') ?? []);
  return Object.freeze({
    id,
    receivedAt: entry.receivedAt.toISOString(),
    method: entry.method,
    outcome: accepted ? 'accepted' : 'refused',
    code: bounded(entry.outcome) ?? '',
    phoneNumbers: Object.freeze(phoneNumbers),
    signName: accepted ? bounded(sent.signName) : param(entry, 'SignName'),
    templateCode: param(entry, 'TemplateCode'),
    templateParam: param(entry, 'TemplateParam'),
    content,
    verificationCode: accepted ? findVerificationCode(sent.templateParam, content) : undefined,
    billedCount: accepted ? sent.billedCount : undefined,
    requestId: accepted ? sent.requestId : undefined,
    stringToSign: bounded(entry.stringToSign),
  });
}

/** A hash lookup. */
export function lookupEntry(id: number, entry: RecordedRequest): InboxLookup {
  const fault = entry.outcome.startsWith('fault:') ? entry.outcome.slice('fault:'.length) : undefined;
  return Object.freeze({
    id,
    receivedAt: entry.receivedAt.toISOString(),
    hash: param(entry, 'hash'),
    verdict: fault === undefined ? entry.outcome : 'fault',
    fault,
    status: entry.status,
  });
}
