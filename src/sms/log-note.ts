import type { ResponseNote } from '../observe/logger.js';

/** Bodies longer than this are not read for the log line (a service answer is ~100 bytes). */
const MAX_NOTE_BODY = 8192;
/** What a service `Code` looks like (`isv.SMS_TEMPLATE_ILLEGAL`); anything else stays out of the line. */
const CODE = /^[\w.:-]{1,64}$/;

/**
 * The service `Code` of an SMS answer, for the attempt's log line
 * (`-> 400 SignatureDoesNotMatch`). Read leniently: this is a log note, not
 * the interpretation of the answer, and an odd body just gives no note.
 */
export function describeSmsResponse(_status: number, text: string): ResponseNote | undefined {
  if (text.length > MAX_NOTE_BODY) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || !Object.hasOwn(body, 'Code')) return undefined;
  const code = (body as { Code: unknown }).Code;
  return typeof code === 'string' && CODE.test(code) ? { serviceCode: code } : undefined;
}
