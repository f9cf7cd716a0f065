import { brandErrorClass } from './brand.js';
import { HashScanSmsError } from './hashscan-sms-error.js';

/**
 * Thrown at construction when a client is misconfigured: a missing key or
 * base URL, a base URL that is not HTTPS (plain HTTP is allowed for loopback
 * hosts only), an out-of-range option. Never retried; fix the configuration. A credential
 * provider that fails at call time is reported through this class too (as
 * the `cause` of the client's `CREDENTIALS` error).
 */
export class ConfigurationError extends HashScanSmsError {
  static {
    brandErrorClass(ConfigurationError, 'ConfigurationError');
  }

  readonly code = 'CONFIGURATION' as const;
  /** The option that is wrong, e.g. `baseUrl`. */
  readonly option: string;

  /**
   * @param cause - What went wrong underneath (pass a redacted error), e.g.
   *   the error a credential provider threw.
   */
  constructor(option: string, message: string, cause?: Error) {
    super({ message: `${option}: ${message}`, cause });
    this.option = option;
  }
}
