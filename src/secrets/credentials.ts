/**
 * Credentials that may change while the process runs: a fixed value, or a
 * provider (a secrets manager, an STS call) asked again when what it gave
 * expires. Concurrent requests share one provider call (single flight); a
 * fixed value costs nothing per request (no promise, no await). A provider
 * that throws, hangs or returns nothing fails that call with a
 * {@link ConfigurationError}: a request never goes out without credentials.
 * @module
 */
import { ConfigurationError } from '../errors/configuration-error.js';
import { type Redactor, redactError } from './redact.js';

/** How long a provided value is reused when the provider gives no `expiresAt`. */
export const DEFAULT_CREDENTIAL_TTL_MS = 5 * 60_000;
/** A value that expires within this window is refreshed before use, so it does not expire in flight. */
export const CREDENTIAL_REFRESH_WINDOW_MS = 10_000;

/** A point in time as providers give it: a `Date`, epoch milliseconds, or an ISO 8601 string (STS's `Expiration`). */
export type ExpiryTime = Date | number | string;

/** What a provider's answer becomes once checked. */
export interface CheckedCredential<T> {
  readonly value: T;
  /** Epoch ms; `undefined` means {@link DEFAULT_CREDENTIAL_TTL_MS} from now. */
  readonly expiresAt: number | undefined;
}

/** How a client turns a provider's raw answer into its credential. */
export interface CredentialRules<T> {
  /** The option named in errors, e.g. `apiKey`. */
  readonly option: string;
  /** Checks a raw answer; returns a message saying what is wrong with it instead. */
  readonly check: (raw: unknown) => CheckedCredential<T> | string;
  /** Called with every new value before its first use (the client registers its secrets for masking here). */
  readonly accept: (value: T) => void;
  /** Scrubs a provider's error before it is kept as a `cause`. */
  readonly redact: Redactor;
  /** Longest wait for the provider, in ms. */
  readonly timeoutMs: number;
}

/** Reads an optional expiry; `null` when it is there but not a valid time. */
export function readExpiry(value: unknown): number | undefined | null {
  if (value === undefined) return undefined;
  const ms = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : value;
  return typeof ms === 'number' && Number.isFinite(ms) ? ms : null;
}

/**
 * One client's credential: {@link CredentialSource.current} returns the value
 * itself when it is fixed or still fresh, and a promise only when the
 * provider has to be asked.
 */
export class CredentialSource<T> {
  readonly #provider: (() => unknown) | undefined;
  readonly #rules: CredentialRules<T> | undefined;
  #value: T | undefined;
  #refreshAt = 0;
  #pending: Promise<T> | undefined;

  private constructor(value: T | undefined, provider?: () => unknown, rules?: CredentialRules<T>) {
    this.#value = value;
    this.#provider = provider;
    this.#rules = rules;
  }

  /** A value that never changes. */
  static fixed<T>(value: T): CredentialSource<T> {
    return new CredentialSource(value);
  }

  /** A provider asked on first use and again when its value expires. */
  static provided<T>(provider: () => unknown, rules: CredentialRules<T>): CredentialSource<T> {
    return new CredentialSource<T>(undefined, provider, rules);
  }

  /** The credential for the next request. */
  current(): T | Promise<T> {
    const value = this.#value;
    if (value !== undefined && (this.#provider === undefined || Date.now() < this.#refreshAt)) return value;
    this.#pending ??= this.#refresh().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /** Forgets a provided value (the service refused it), so the next request asks the provider again. */
  invalidate(): void {
    if (this.#provider !== undefined) this.#value = undefined;
  }

  /**
   * The service refused `used`: asks the provider again, however fresh its
   * value looked (one provider call shared by every call refused meanwhile),
   * and resolves whether the credential now differs from `used`, so that the
   * refused call may be made once more with it. A call refused after another
   * one already brought a new value gets `true` at once, without a provider
   * call. A fixed credential is never asked again: `false`, synchronously. A
   * provider that fails resolves `false` (the refusal stands; the next call
   * asks again).
   */
  refresh(used: T): Promise<boolean> | false {
    if (this.#provider === undefined) return false;
    const value = this.#value;
    if (value !== undefined && !sameValue(value, used)) return Promise.resolve(true);
    if (value !== undefined) this.#value = undefined;
    return Promise.resolve(this.current()).then(
      (fresh) => !sameValue(fresh, used),
      () => false,
    );
  }

  async #refresh(): Promise<T> {
    const rules = this.#rules as CredentialRules<T>;
    const provider = this.#provider as () => unknown;
    let raw: unknown;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      raw = await Promise.race([
        // A provider that throws synchronously is handled like one that rejects.
        Promise.resolve().then(provider),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(new ConfigurationError(rules.option, `the provider gave no answer within ${rules.timeoutMs} ms`)),
            rules.timeoutMs,
          );
        }),
      ]);
    } catch (error) {
      if (error instanceof ConfigurationError) throw error;
      throw new ConfigurationError(rules.option, 'the provider failed', redactError(error, rules.redact));
    } finally {
      clearTimeout(timer);
    }
    const checked = rules.check(raw);
    if (typeof checked === 'string') throw new ConfigurationError(rules.option, `the provider ${checked}`);
    rules.accept(checked.value);
    const now = Date.now();
    const expiresAt = checked.expiresAt ?? now + DEFAULT_CREDENTIAL_TTL_MS;
    this.#value = checked.value;
    this.#refreshAt = expiresAt - CREDENTIAL_REFRESH_WINDOW_MS;
    return checked.value;
  }
}

/** Whether two credentials hold the same values (a provider returns a new object each time). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => (a as Record<string, unknown>)[key] === (b as Record<string, unknown>)[key])
  );
}
