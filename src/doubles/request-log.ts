/**
 * One request as the sandbox saw it, with every credential masked, so tests
 * can assert request counts and parameters, and print the log safely.
 */
export interface RecordedRequest {
  /** Which double answered: the hash lookup or the SMS service. */
  readonly service: 'hashscan' | 'sms';
  /** Upper-case HTTP method, as received. */
  readonly method: string;
  /** The path, without the query string. */
  readonly path: string;
  /**
   * Query parameters (and, for SMS, form fields of a POST). `api_key`,
   * `Signature`, passwords and any value holding a configured secret read `***`.
   */
  readonly params: Readonly<Record<string, string>>;
  /** When the request was recorded. */
  readonly receivedAt: Date;
  /** HTTP status sent (even if the body was then cut), or `undefined` when none was: the connection was cut or held. */
  readonly status: number | undefined;
  /**
   * What happened: for hash lookups `malicious`, `not_detected`,
   * `unauthorized`, `invalid_hash`, `method_not_allowed` or `fault:<kind>`;
   * for SMS the response `Code` (`OK`, `SignatureDoesNotMatch`, …).
   */
  readonly outcome: string;
  /**
   * SMS refused with `SignatureDoesNotMatch` only: the string to sign the
   * double computed, with the method it received, over the parameters as
   * logged (a masked value reads `***`), so a person can compare it with
   * their own. It holds no secret.
   */
  readonly stringToSign?: string;
}

/** Where a service writes what it saw. */
export type RequestSink = (entry: RecordedRequest) => void;

/** What a masked value reads in the request log. */
const MASK = '***';

/** Parameters that carry a credential or a value derived from one. */
const SENSITIVE = /^(api_key|signature|p|password|pwd|accesskeysecret|secret(key)?|token)$/i;

/**
 * Masks credentials in recorded parameters: sensitive names by name, and any
 * value that contains one of `secrets` (a key sent under an unexpected name).
 */
export function maskParams(
  params: Readonly<Record<string, string>>,
  secrets: readonly string[],
): Readonly<Record<string, string>> {
  const masked: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    const leaks = secrets.some((secret) => secret !== '' && value.includes(secret));
    masked[name] = value !== '' && (SENSITIVE.test(name) || leaks) ? MASK : value;
  }
  return Object.freeze(masked);
}
