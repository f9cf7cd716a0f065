import { createHash, createHmac, hkdfSync } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';

type CryptoModule = typeof import('../../src/util/crypto.js');

/** util/crypto.ts loaded afresh, with `node:crypto` present or, as in a Worker without nodejs_compat, absent. */
async function load(withNodeCrypto: boolean): Promise<CryptoModule> {
  vi.resetModules();
  if (!withNodeCrypto) {
    const real = process.getBuiltinModule.bind(process);
    vi.spyOn(process, 'getBuiltinModule').mockImplementation(((id: string) =>
      id === 'node:crypto' ? undefined : real(id)) as typeof process.getBuiltinModule);
  }
  return import('../../src/util/crypto.js');
}

afterEach(() => {
  vi.restoreAllMocks();
});

const BYTES = new Uint8Array(100_003).map((_, i) => (i * 31) & 0xff);
const HEX = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe.each([
  { withNodeCrypto: true, name: 'node:crypto' },
  { withNodeCrypto: false, name: '@noble/hashes (no node:crypto)' },
])('util/crypto with $name', ({ withNodeCrypto }) => {
  it('streams MD5, SHA-1 and SHA-256 as node:crypto does, in any chunking', async () => {
    const crypto = await load(withNodeCrypto);
    // The fallback is really taken: the module sees no node:crypto.
    expect(process.getBuiltinModule('node:crypto') === undefined).toBe(!withNodeCrypto);
    for (const algorithm of ['md5', 'sha1', 'sha256'] as const) {
      const digest = crypto.createDigest(algorithm);
      for (let i = 0; i < BYTES.length; i += 7_777) digest.update(BYTES.subarray(i, i + 7_777));
      expect(crypto.toHex(digest.bytes())).toBe(createHash(algorithm).update(BYTES).digest('hex'));
      expect(crypto.toHex(crypto.createDigest(algorithm).update('héllo').bytes())).toBe(
        createHash(algorithm).update('héllo', 'utf8').digest('hex'),
      );
    }
  });

  it('gives HMAC-SHA1/SHA-256 and HKDF-SHA-256 as node:crypto does, and base64 as Buffer does', async () => {
    const crypto = await load(withNodeCrypto);
    const sig = crypto.hmacBytes('sha1', 'secret&', 'GET&%2F&AccessKeyId%3Dtest');
    expect(crypto.toBase64(sig)).toBe(
      createHmac('sha1', 'secret&').update('GET&%2F&AccessKeyId%3Dtest').digest('base64'),
    );
    const mac = crypto.hmacBytes('sha256', BYTES.subarray(0, 32), 'payload');
    expect(crypto.toBase64Url(mac)).toBe(
      createHmac('sha256', BYTES.subarray(0, 32)).update('payload').digest('base64url'),
    );
    // The shared cache's seal: the same text in one step, whatever the message (non-ASCII included).
    for (const message of ['hs1.["a","b"]', 'hs1.héllo ✓', '']) {
      expect(crypto.hmacSha256Base64Url(BYTES.subarray(0, 32), message)).toBe(
        createHmac('sha256', BYTES.subarray(0, 32)).update(message, 'utf8').digest('base64url'),
      );
    }
    expect(HEX(crypto.hkdfSha256('key', 'salt', 'info', 32))).toBe(
      Buffer.from(hkdfSync('sha256', 'key', 'salt', 'info', 32)).toString('hex'),
    );
    for (const length of [0, 1, 2, 3, 4, 5]) {
      expect(crypto.toBase64(BYTES.subarray(0, length))).toBe(
        Buffer.from(BYTES.subarray(0, length)).toString('base64'),
      );
    }
    expect(crypto.equalBytes(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(crypto.equalBytes(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(crypto.equalBytes(new Uint8Array([1]), new Uint8Array([1, 2]))).toBe(false);
  });
});
