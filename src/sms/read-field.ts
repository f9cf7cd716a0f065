import { SmsError } from '../errors/sms-error.js';
import { invalidParameter } from './invalid-parameter.js';

/**
 * Reads `source[key]` for validation. A getter or a `Proxy` that throws
 * becomes `InvalidParameter` naming `parameter`: checking the caller's input
 * never lets a foreign exception (or a `TypeError`) escape.
 */
export function readField(source: object, key: PropertyKey, parameter: string): unknown {
  try {
    return Reflect.get(source, key);
  } catch {
    throw invalidParameter(parameter, 'could not be read (its getter threw)');
  }
}

/** Runs a check of the caller's input; anything but an `SmsError` thrown inside becomes `InvalidParameter`. */
export function guarded<T>(parameter: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof SmsError) throw error;
    throw invalidParameter(parameter, 'could not be read (inspecting it threw)');
  }
}
