/**
 * The digests, MACs and random identifiers of the core, on every runtime:
 * `node:crypto` (native, streaming) where the runtime has it, else
 * @noble/hashes (pure JavaScript, synchronous, streaming; Web Crypto has no
 * streaming digest and no synchronous HMAC, and a Worker may not compile
 * WebAssembly from bytes at run time). Random values come from Web Crypto,
 * which every supported runtime has.
 */
import type * as NodeCrypto from 'node:crypto';
import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { md5, sha1 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { nodeBuiltin } from './node-builtin.js';

/** The algorithms of the core. */
export type DigestAlgorithm = 'md5' | 'sha1' | 'sha256';

/** A streaming digest. */
export interface Digest {
  update(chunk: Uint8Array | string): Digest;
  /** The digest's bytes; the digest cannot be updated afterwards. */
  bytes(): Uint8Array;
}

let native: typeof NodeCrypto | null | undefined;

/** `node:crypto`, or `null` where the runtime has none (a Worker without `nodejs_compat`). */
function nodeCrypto(): typeof NodeCrypto | null {
  if (native === undefined) native = nodeBuiltin<typeof NodeCrypto>('node:crypto') ?? null;
  return native;
}

const NOBLE = { md5, sha1, sha256 } as const;
const UTF8 = new TextEncoder();
const bytesOf = (chunk: Uint8Array | string): Uint8Array => (typeof chunk === 'string' ? UTF8.encode(chunk) : chunk);

/** A streaming digest of `algorithm`. */
export function createDigest(algorithm: DigestAlgorithm): Digest {
  const node = nodeCrypto();
  if (node !== null) {
    const hash = node.createHash(algorithm);
    const digest: Digest = {
      update: (chunk) => {
        hash.update(chunk);
        return digest;
      },
      bytes: () => new Uint8Array(hash.digest()),
    };
    return digest;
  }
  const hash = NOBLE[algorithm].create();
  const digest: Digest = {
    update: (chunk) => {
      hash.update(bytesOf(chunk));
      return digest;
    },
    bytes: () => hash.digest(),
  };
  return digest;
}

/** HMAC of `message` keyed with `key`, as bytes. */
export function hmacBytes(
  algorithm: 'sha1' | 'sha256',
  key: Uint8Array | string,
  message: Uint8Array | string,
): Uint8Array {
  const node = nodeCrypto();
  if (node !== null) return new Uint8Array(node.createHmac(algorithm, key).update(message).digest());
  return hmac(NOBLE[algorithm], bytesOf(key), bytesOf(message));
}

/**
 * HMAC-SHA-256 of `message` keyed with `key`, as unpadded URL-safe base64 (RFC 4648 §5): what
 * `toBase64Url(hmacBytes('sha256', key, message))` gives, without the copies and the
 * regular expressions in between (it seals every shared cache entry).
 */
export function hmacSha256Base64Url(key: Uint8Array, message: string): string {
  const node = nodeCrypto();
  if (node !== null) return node.createHmac('sha256', key).update(message).digest('base64url');
  return toBase64Url(hmac(sha256, key, UTF8.encode(message)));
}

/** HKDF-SHA-256 (RFC 5869) of `length` bytes. */
export function hkdfSha256(key: string, salt: string, info: string, length: number): Uint8Array {
  const node = nodeCrypto();
  if (node !== null) return new Uint8Array(node.hkdfSync('sha256', key, salt, info, length));
  return hkdf(sha256, UTF8.encode(key), UTF8.encode(salt), UTF8.encode(info), length);
}

/** Whether `a` and `b` hold the same bytes, in a time that depends on their length only. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

/** A random RFC 9562 version 4 UUID (Web Crypto). */
export function randomUUID(): string {
  return globalThis.crypto.randomUUID();
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Lower-case hex. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += HEX[byte] as string;
  return out;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 with padding (RFC 4648 §4), without `Buffer` or `btoa`'s Latin-1 string. */
export function toBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out += `${BASE64[n >> 18]}${BASE64[(n >> 12) & 63]}${BASE64[(n >> 6) & 63]}${BASE64[n & 63]}`;
  }
  const left = bytes.length - i;
  if (left === 1) {
    const n = (bytes[i] as number) << 16;
    out += `${BASE64[n >> 18]}${BASE64[(n >> 12) & 63]}==`;
  } else if (left === 2) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8);
    out += `${BASE64[n >> 18]}${BASE64[(n >> 12) & 63]}${BASE64[(n >> 6) & 63]}=`;
  }
  return out;
}

/** URL-safe base64 without padding (RFC 4648 §5). */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
