import { invalidParameter } from './invalid-parameter.js';
import { guarded, readField } from './read-field.js';

/**
 * Most recipients one send may have. The service's specification states no
 * bound; this is the vendor protocol's own limit for `SendSms` (1000 numbers
 * per call), so a larger batch fails here rather than at the service.
 */
export const MAX_PHONE_NUMBERS = 1000;

/**
 * One phone number: an optional leading `+`, then 5 to 20 ASCII digits, and
 * nothing else (no spaces, dashes, brackets or commas). That admits national
 * numbers (`13800138000`), E.164 (`+8613800138000`, at most 15 digits) and
 * international prefixes (`008613800138000`). The service's specification
 * states no format for `PhoneNumbers` ("Recipient phone number"); the shape
 * is checked so that no text other than digits is ever signed and sent.
 */
const PHONE_NUMBER = /^\+?[0-9]{5,20}$/;

function checkNumber(value: unknown, parameter: string): string {
  if (value === undefined) throw invalidParameter(parameter, 'is required');
  if (typeof value !== 'string') {
    throw invalidParameter(parameter, `must be a string, got ${value === null ? 'null' : typeof value}`);
  }
  if (value.includes(',')) {
    throw invalidParameter(parameter, 'must be exactly one phone number (no comma); pass several as an array');
  }
  if (!PHONE_NUMBER.test(value)) {
    throw invalidParameter(
      parameter,
      'must be a phone number: an optional leading "+" and 5 to 20 digits, nothing else',
    );
  }
  return value;
}

/**
 * Checks `phoneNumbers` and returns the `PhoneNumbers` parameter. A string is
 * exactly one number, never a comma-separated list: text typed by an end user
 * cannot fan one message out to many phones. Several recipients need an
 * array of 1 to {@link MAX_PHONE_NUMBERS} distinct numbers, each checked.
 *
 * @throws {SmsError} `InvalidParameter` naming `phoneNumbers` or `phoneNumbers[i]`.
 */
export function phoneNumbersParam(value: unknown): string {
  if (!guarded('phoneNumbers', () => Array.isArray(value))) return checkNumber(value, 'phoneNumbers');
  const list = value as readonly unknown[];
  const length = guarded('phoneNumbers', () => list.length);
  if (length === 0) throw invalidParameter('phoneNumbers', 'must hold at least one phone number');
  if (length > MAX_PHONE_NUMBERS) {
    throw invalidParameter('phoneNumbers', `must hold at most ${MAX_PHONE_NUMBERS} phone numbers`);
  }
  const seen = new Map<string, number>();
  // An index loop, not `map`: a hole in a sparse array is a missing number, not a skipped one.
  for (let index = 0; index < length; index++) {
    const parameter = `phoneNumbers[${index}]`;
    const number = checkNumber(readField(list, index, parameter), parameter);
    const first = seen.get(number);
    // One call to the same phone twice would deliver (and bill) the message twice.
    if (first !== undefined) throw invalidParameter(parameter, `repeats phoneNumbers[${first}]`);
    seen.set(number, index);
  }
  return [...seen.keys()].join(',');
}
