import { type CanonicalPhone, canonicalPhone, type PhoneRegion } from '../phone/canonical-phone.js';
import { invalidParameter } from './invalid-parameter.js';
import { guarded, readField } from './read-field.js';

/**
 * Most recipients one send may have. The service's specification states no
 * bound; this is the vendor protocol's own limit for `SendSms` (1000 numbers
 * per call), so a larger batch fails here rather than at the service.
 */
export const MAX_PHONE_NUMBERS = 1000;

/** Longest text read as one phone number: room for spaces, dashes and brackets, not for a paragraph. */
const MAX_NUMBER_TEXT = 40;

/** The recipients of one send: as they go on the wire, and as the limits and destinations see them. */
export interface Recipients {
  /** The `PhoneNumbers` parameter, signed and sent: each number in its {@link wireNumber} form. */
  readonly param: string;
  /** Each number, canonical, in the order given. */
  readonly phones: readonly CanonicalPhone[];
  /** Whether one number was given as a string (errors then name `phoneNumbers`, not `phoneNumbers[0]`). */
  readonly single: boolean;
}

/**
 * The form the vendor reads: a mainland number as its 11 national digits
 * (the vendor's domestic route takes it without a prefix), any other as its
 * country calling code and national number, digits only (the vendor's
 * "international code + number"). One number is always sent one way,
 * whatever the spelling it was given in.
 */
function wireNumber(phone: CanonicalPhone): string {
  return phone.callingCode === '86' ? phone.nationalNumber : `${phone.callingCode}${phone.nationalNumber}`;
}

function checkNumber(value: unknown, parameter: string, region: PhoneRegion): CanonicalPhone {
  if (value === undefined) throw invalidParameter(parameter, 'is required');
  if (typeof value !== 'string') {
    throw invalidParameter(parameter, `must be a string, got ${value === null ? 'null' : typeof value}`);
  }
  if (value.includes(',')) {
    throw invalidParameter(parameter, 'must be exactly one phone number (no comma); pass several as an array');
  }
  if (value.length > MAX_NUMBER_TEXT) {
    throw invalidParameter(parameter, `must be a phone number of at most ${MAX_NUMBER_TEXT} characters`);
  }
  const parsed = canonicalPhone(value, region);
  if (!parsed.ok) {
    throw invalidParameter(
      parameter,
      `must be a phone number (national in ${region}, or international with "+" or "00"): ${parsed.problem.replaceAll('_', ' ')}`,
    );
  }
  return parsed.phone;
}

/**
 * Checks `phoneNumbers` and returns the recipients. A string is exactly one
 * number, never a comma-separated list: text typed by an end user cannot fan
 * one message out to many phones. Several recipients need an array of 1 to
 * {@link MAX_PHONE_NUMBERS} distinct numbers, each checked. Each number is
 * read in `region` unless it carries a country calling code, and two
 * spellings of one phone (`13800138000`, `+8613800138000`) are the same
 * number: a repeat is refused.
 *
 * @throws {SmsError} `InvalidParameter` naming `phoneNumbers` or `phoneNumbers[i]`, never the number.
 */
export function checkRecipients(value: unknown, region: PhoneRegion): Recipients {
  if (!guarded('phoneNumbers', () => Array.isArray(value))) {
    const phone = checkNumber(value, 'phoneNumbers', region);
    return { param: wireNumber(phone), phones: [phone], single: true };
  }
  const list = value as readonly unknown[];
  const length = guarded('phoneNumbers', () => list.length);
  if (length === 0) throw invalidParameter('phoneNumbers', 'must hold at least one phone number');
  if (length > MAX_PHONE_NUMBERS) {
    throw invalidParameter('phoneNumbers', `must hold at most ${MAX_PHONE_NUMBERS} phone numbers`);
  }
  const seen = new Map<string, number>();
  const phones: CanonicalPhone[] = [];
  // An index loop, not `map`: a hole in a sparse array is a missing number, not a skipped one.
  for (let index = 0; index < length; index++) {
    const parameter = `phoneNumbers[${index}]`;
    const phone = checkNumber(readField(list, index, parameter), parameter, region);
    const first = seen.get(phone.e164);
    // One call to the same phone twice would deliver (and bill) the message twice.
    if (first !== undefined)
      throw invalidParameter(parameter, `repeats phoneNumbers[${first}] (the same phone, in any spelling)`);
    seen.set(phone.e164, index);
    phones.push(phone);
  }
  return { param: phones.map(wireNumber).join(','), phones, single: false };
}
