import { SmsError } from '../errors/sms-error.js';

/** A client-side `InvalidParameter` error: nothing was sent. The message names the field, never its value. */
export function invalidParameter(parameter: string, problem: string): SmsError {
  return new SmsError({
    code: 'InvalidParameter',
    outcome: 'not_sent',
    parameter,
    message: `${parameter}: ${problem}`,
  });
}

/** Checks that `value` is a string the signer can encode (no lone surrogate). */
export function signableString(value: unknown, parameter: string): string {
  if (typeof value !== 'string') {
    throw invalidParameter(parameter, `must be a string, got ${value === null ? 'null' : typeof value}`);
  }
  if (!value.isWellFormed()) {
    throw invalidParameter(parameter, 'contains a lone UTF-16 surrogate, which cannot be encoded');
  }
  return value;
}
