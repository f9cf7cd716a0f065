import { HashScanSmsError } from './hashscan-sms-error.js';

/**
 * Thrown at construction when a client is misconfigured: a missing key or
 * base URL, a base URL that is not HTTPS (plain HTTP is allowed for loopback
 * hosts only), an out-of-range option. Never retried; fix the configuration.
 */
export class ConfigurationError extends HashScanSmsError {
  readonly code = 'CONFIGURATION' as const;
  /** The option that is wrong, e.g. `baseUrl`. */
  readonly option: string;

  constructor(option: string, message: string) {
    super({ message: `${option}: ${message}` });
    this.option = option;
  }
}
