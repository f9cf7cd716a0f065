import { brandErrorClass } from './brand.js';
import { HashScanSmsError } from './hashscan-sms-error.js';

/**
 * Thrown by the AK/SK signer for input it cannot sign faithfully: a value
 * that is not a string, or a string with a lone UTF-16 surrogate (which has
 * no UTF-8 encoding, so the server could never compute the same signature).
 */
export class SigningError extends HashScanSmsError {
  static {
    brandErrorClass(SigningError, 'SigningError');
  }

  readonly code = 'INVALID_SIGNING_INPUT' as const;
  /** The parameter whose key or value was rejected. */
  readonly parameter: string | undefined;

  constructor(message: string, parameter?: string) {
    super({ message });
    this.parameter = parameter;
  }
}
