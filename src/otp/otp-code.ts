import { equalBytes, hmacBytes, toHex } from '../util/crypto.js';

/*
 * A verification code and what is stored of it. Digits come from Web Crypto
 * by rejection sampling (a byte of 250 or more is drawn again), so each digit
 * is uniform: `byte % 10` alone would favour 0–5. What is stored is an
 * HMAC-SHA256 under the verifier's secret key, over the record's random id,
 * the phone and the code: a dump of the store without the key cannot be
 * brute-forced (a million 6-digit codes are a million tries of a plain hash),
 * and each record's id makes every hash different even for equal codes.
 */

/** Longest code a check hashes; anything longer is a mismatch without hashing it. */
const MAX_CODE_LENGTH = 64;

/** A code of `length` uniform decimal digits from a cryptographic generator. */
export function generateCode(length: number): string {
  let code = '';
  const bytes = new Uint8Array(length * 2);
  while (code.length < length) {
    globalThis.crypto.getRandomValues(bytes);
    for (const byte of bytes) {
      if (byte >= 250) continue;
      code += String(byte % 10);
      if (code.length === length) break;
    }
  }
  return code;
}

/** The stored form of `code` for the record `id` of the phone `e164`: lower-case hex. */
export function codeHash(secret: Uint8Array, id: string, e164: string, code: string): string {
  return toHex(mac(secret, id, e164, code));
}

/** Whether `code` is the code stored as `storedHash`, compared in constant time. */
export function codeMatches(secret: Uint8Array, id: string, e164: string, code: string, storedHash: string): boolean {
  if (code.length > MAX_CODE_LENGTH) return false;
  return equalBytes(mac(secret, id, e164, code), fromHex(storedHash));
}

const mac = (secret: Uint8Array, id: string, e164: string, code: string): Uint8Array =>
  hmacBytes('sha256', secret, `${id}\n${e164}\n${code}`);

function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** The store's key of a phone: a keyed hash, so keys (in Redis, in a dump) never show the number. */
export const phoneKey = (secret: Uint8Array, e164: string): string =>
  toHex(hmacBytes('sha256', secret, `phone\n${e164}`)).slice(0, 32);
