import { requiredSetting } from '../config/settings.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import { HashScanError } from '../errors/hashscan-error.js';
import { type CheckedCredential, CredentialSource, type ExpiryTime, readExpiry } from '../secrets/credentials.js';
import { createRedactor, type Redactor } from '../secrets/redact.js';
import { SecretSet } from '../secrets/secret-set.js';
import type { OutgoingRequest } from '../transport/call/exchange.js';
import { resolveTimeoutMs } from '../transport/settings/client-options.js';

/** An API key with the time it stops being valid; it is fetched again 10 s before. */
export interface ExpiringApiKey {
  /** The platform access key. */
  readonly apiKey: string;
  /** When it expires. Without it a provider is asked again after 5 minutes. */
  readonly expiresAt?: ExpiryTime | undefined;
}

/** A function that gives the current API key (from a secrets manager, say), alone or with its expiry. */
export type ApiKeyProvider = () => string | ExpiringApiKey | Promise<string | ExpiringApiKey>;

/** A key as the client keeps it: raw (for masking) and encoded once for the query. */
export interface ApiKey {
  readonly key: string;
  readonly param: string;
}

function checkKey(raw: unknown): CheckedCredential<ApiKey> | string {
  const given =
    typeof raw === 'object' && raw !== null
      ? (raw as Partial<Record<'apiKey' | 'expiresAt', unknown>>)
      : { apiKey: raw };
  if (typeof given.apiKey !== 'string' || given.apiKey === '') return 'returned no API key (a non-empty string)';
  if (!given.apiKey.isWellFormed()) return 'returned an API key with a lone UTF-16 surrogate';
  const expiresAt = readExpiry(given.expiresAt);
  if (expiresAt === null) return 'returned an expiresAt that is not a valid time';
  return { value: { key: given.apiKey, param: encodeURIComponent(given.apiKey) }, expiresAt };
}

/**
 * The `apiKey` option as a credential source: a string (or the environment),
 * or a provider. Every key it yields joins `secrets` before its first use.
 */
function apiKeySource(
  option: string | ApiKeyProvider | undefined,
  secrets: SecretSet,
  context: { readonly redact: Redactor; readonly timeoutMs: number },
): CredentialSource<ApiKey> {
  const accept = (value: ApiKey): void => secrets.add(value.key);
  if (typeof option === 'function') {
    return CredentialSource.provided(option, { option: 'apiKey', check: checkKey, accept, ...context });
  }
  const key = requiredSetting(option, 'apiKey', 'HASHSCAN_API_KEY');
  if (!key.isWellFormed()) throw new ConfigurationError('apiKey', 'contains a lone UTF-16 surrogate');
  const value = { key, param: encodeURIComponent(key) };
  accept(value);
  return CredentialSource.fixed(value);
}

/**
 * The hash client's key and the redactor that masks it (and every key a
 * provider returns later): `api_key` values and the keys themselves.
 */
export function apiKeyWithRedactor(options: {
  readonly apiKey?: string | ApiKeyProvider | undefined;
  readonly timeoutMs?: number | undefined;
}): {
  readonly source: CredentialSource<ApiKey>;
  readonly redact: Redactor;
  /** The checked `timeoutMs`, also the transport's (checked once, here). */
  readonly timeoutMs: number;
  /** The checked key when it is fixed (an option or the environment); `undefined` for a provider. */
  readonly fixedKey: string | undefined;
} {
  const secrets = new SecretSet();
  const timeoutMs = resolveTimeoutMs(options.timeoutMs);
  const redact = createRedactor({ secrets, params: { api_key: 'full' } });
  const source = apiKeySource(options.apiKey, secrets, { redact, timeoutMs });
  // A fixed key is the one secret the source has accepted: read once, where it was checked.
  const fixedKey = typeof options.apiKey === 'function' ? undefined : secrets.values[0];
  return { source, redact, timeoutMs, fixedKey };
}

/** Where a lookup keeps the key its last attempt was sent with (to ask again if the service refuses it). */
export interface KeyUsed {
  used: ApiKey | undefined;
}

/** Whether the service refused the key (HTTP 401/403): it may have been rotated. */
export function refusesKey(error: unknown): boolean {
  return (
    error instanceof HashScanError && error.code === 'HTTP_STATUS' && (error.status === 401 || error.status === 403)
  );
}

/**
 * The request of one lookup attempt with the current key (noted in `keyUsed`):
 * built at once for a fixed or fresh key, after the provider's answer otherwise.
 */
export function lookupRequest(
  source: CredentialSource<ApiKey>,
  hash: string,
  attempt: number,
  keyUsed: KeyUsed,
): OutgoingRequest | Promise<OutgoingRequest> {
  const key = source.current();
  if (!(key instanceof Promise)) {
    keyUsed.used = key;
    return lookupPath(key.param, hash);
  }
  return key.then(
    (fresh) => {
      keyUsed.used = fresh;
      return lookupPath(fresh.param, hash);
    },
    (error: unknown) => {
      throw apiKeyError(error, hash, attempt - 1);
    },
  );
}

function lookupPath(param: string, hash: string): OutgoingRequest {
  return { method: 'GET', path: `/hash_scan?api_key=${param}&hash=${hash}` };
}

/** The lookup's error when the key provider failed: nothing was sent. */
function apiKeyError(error: unknown, hash: string, attempts: number): HashScanError {
  return new HashScanError({
    code: 'CREDENTIALS',
    message: error instanceof Error ? error.message : 'apiKey: the provider failed',
    cause: error,
    hash,
    attempts,
  });
}
