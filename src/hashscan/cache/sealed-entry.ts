import * as z from 'zod/mini';
import { ConfigurationError } from '../../errors/configuration-error.js';
import type { NormalizedHash } from '../../hashing/hash-algorithm.js';
import { equalBytes, hkdfSha256, hmacSha256Base64Url } from '../../util/crypto.js';
import { type InterpretContext, interpretScanResponse } from '../interpret-response.js';
import type { ScanResult } from '../scan-result.js';

const UTF8 = new TextEncoder();

/**
 * What goes into the shared store, and its check on the way back.
 *
 * An entry is `hs1.<mac>.<payload>`: `payload` is the canonical JSON array
 * `[sourceId, hash, algorithm, verdict, expiresAt, body]` (`body` is the
 * service's answer as JSON text), `mac` the base64url HMAC-SHA-256 of
 * `hs1.<payload>` under the cache secret. On the way back the MAC is checked
 * first (in constant time), then every field, then `body` goes through the
 * very interpretation a service answer gets: an entry yields a verdict only
 * if the service, sending that body for that hash, would have produced the
 * same one. Anything else is a miss with a reason, never a verdict.
 */

const FORMAT = 'hs1';
const MAC_LENGTH = 43; // base64url of 32 bytes, unpadded
/** Far above any real answer (a few hundred bytes); bounds work on garbage. */
export const MAX_ENTRY_LENGTH = 64 * 1024;
const MIN_SECRET_BYTES = 32;

const payloadSchema = z.tuple([
  z.string(),
  z.string(),
  z.enum(['md5', 'sha1', 'sha256']),
  z.enum(['malicious', 'not_detected']),
  z.int().check(z.nonnegative()),
  z.string(),
]);

/** The key sealing entries: `cache.secret`, or HKDF-SHA-256 of the API key with the source id as context. */
export function cacheSecret(secret: string | Uint8Array | undefined, apiKey: string, sourceId: string): Uint8Array {
  if (secret === undefined) {
    return hkdfSha256(apiKey, 'hashscan-sms shared cache v1', sourceId, 32);
  }
  const bytes =
    typeof secret === 'string'
      ? new TextEncoder().encode(secret)
      : secret instanceof Uint8Array
        ? Uint8Array.from(secret)
        : null;
  if (bytes === null || bytes.length < MIN_SECRET_BYTES) {
    throw new ConfigurationError('cache.secret', `must be a string or bytes of at least ${MIN_SECRET_BYTES} bytes`);
  }
  return bytes;
}

function mac(secret: Uint8Array, payload: string): string {
  return hmacSha256Base64Url(secret, `${FORMAT}.${payload}`);
}

/** Seals `result` for the shared store, valid until `expiresAt` (ms since the epoch). */
export function sealEntry(result: ScanResult, sourceId: string, secret: Uint8Array, expiresAt: number): string {
  const payload = JSON.stringify([
    sourceId,
    result.hash,
    result.algorithm,
    result.verdict,
    Math.ceil(expiresAt),
    JSON.stringify(result.raw),
  ]);
  return `${FORMAT}.${mac(secret, payload)}.${payload}`;
}

/** A stored entry that passed every check, or why it did not. */
export type OpenedEntry =
  | { readonly ok: true; readonly result: ScanResult; readonly remainingMs: number }
  | { readonly ok: false; readonly reason: string };

/** What checking an entry needs besides the entry. */
export interface OpenContext extends Omit<InterpretContext, 'query'> {
  readonly sourceId: string;
  readonly secret: Uint8Array;
  /** Wall-clock now, ms since the epoch (expiry is wall-clock: replicas share it). */
  readonly now: number;
}

const NO_HEADERS = { get: (): null => null };

/** Checks a stored value read for `query`; never throws. */
export function openEntry(stored: unknown, query: NormalizedHash, context: OpenContext): OpenedEntry {
  if (typeof stored !== 'string') return { ok: false, reason: 'not a string' };
  if (stored.length > MAX_ENTRY_LENGTH) return { ok: false, reason: 'too long' };
  const macEnd = FORMAT.length + 1 + MAC_LENGTH;
  if (!stored.startsWith(`${FORMAT}.`) || stored[macEnd] !== '.') return { ok: false, reason: 'unknown format' };
  const payload = stored.slice(macEnd + 1);
  const expected = UTF8.encode(mac(context.secret, payload));
  const given = UTF8.encode(stored.slice(FORMAT.length + 1, macEnd));
  if (!equalBytes(given, expected)) return { ok: false, reason: 'bad MAC' };

  let fields: z.infer<typeof payloadSchema>;
  try {
    const parsed = payloadSchema.safeParse(JSON.parse(payload));
    if (!parsed.success) return { ok: false, reason: 'malformed payload' };
    fields = parsed.data;
  } catch {
    return { ok: false, reason: 'malformed payload' };
  }
  const [sourceId, hash, algorithm, verdict, expiresAt, body] = fields;
  if (sourceId !== context.sourceId) return { ok: false, reason: 'another source' };
  if (hash !== query.hash || algorithm !== query.algorithm) return { ok: false, reason: 'another hash' };
  if (expiresAt <= context.now) return { ok: false, reason: 'expired' };

  let result: ScanResult;
  try {
    result = interpretScanResponse(
      { status: 200, headers: NO_HEADERS, text: body, attempt: 0 },
      { query, notDetected: context.notDetected, redact: context.redact },
    );
  } catch {
    return { ok: false, reason: 'not a valid answer' };
  }
  if (result.verdict !== verdict) return { ok: false, reason: 'verdict does not match the body' };
  return { ok: true, result, remainingMs: expiresAt - context.now };
}
