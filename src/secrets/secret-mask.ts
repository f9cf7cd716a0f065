import { createRedactor, type Redactor } from './redact.js';
import { SecretSet } from './secret-set.js';

/**
 * Masks secrets a caller learns one by one (a key on the command line, in
 * the environment) in any text, with the clients' own redaction: every raw,
 * URL- and form-encoded spelling, whatever the number of secrets.
 */
export class SecretMask {
  readonly #secrets = new SecretSet([], Number.POSITIVE_INFINITY);
  /** Masks every secret added so far (the redactor follows later additions). */
  readonly mask: Redactor = createRedactor({ secrets: this.#secrets, params: {} });

  /** Adds a secret; `undefined` and the empty string are ignored. */
  add(secret: string | undefined): void {
    if (secret !== undefined) this.#secrets.add(secret);
  }
}
