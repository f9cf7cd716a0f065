import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactUrlParams } from '../../src/secrets/redact-url-params.js';

describe('redactUrlParams', () => {
  it('redacts api_key and Signature in full URLs, paths and bare query strings', () => {
    expect(redactUrlParams('https://h.example/hash_scan?api_key=s3cret&hash=abc')).toBe(
      'https://h.example/hash_scan?api_key=REDACTED&hash=abc',
    );
    expect(redactUrlParams('/hash_scan?hash=abc&api_key=s3cret#top')).toBe('/hash_scan?hash=abc&api_key=REDACTED#top');
    expect(redactUrlParams('api_key=s3cret&hash=abc')).toBe('api_key=REDACTED&hash=abc');
    expect(redactUrlParams('https://s.example/?Action=SendSms&Signature=abc%2Bdef%3D')).toBe(
      'https://s.example/?Action=SendSms&Signature=REDACTED',
    );
    expect(redactUrlParams('https://h.example/?api%5Fkey=s3cret&api_key=again')).toBe(
      'https://h.example/?api%5Fkey=REDACTED&api_key=REDACTED',
    );
    expect(redactUrlParams('https://h.example/?token=t', ['token'])).toBe('https://h.example/?token=REDACTED');
  });

  it('leaves URLs without those parameters as they are', () => {
    for (const url of ['https://h.example/hash_scan', 'https://h.example/a/b=c', 'plain', '/p?x=1&y', 'a=%E0%A4%A']) {
      expect(redactUrlParams(url)).toBe(url);
    }
  });

  it('never leaves a key value behind, whatever the key', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 6 }), fc.string(), (key, hash) => {
        const query = new URLSearchParams({ api_key: key, hash }).toString();
        const redacted = redactUrlParams(`https://h.example/hash_scan?${query}`);
        expect(new URL(redacted).searchParams.get('api_key')).toBe('REDACTED');
        expect(new URL(redacted).searchParams.get('hash')).toBe(hash);
      }),
    );
  });
});
