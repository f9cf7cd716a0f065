import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeSignature, stringToSign, verifySignature } from '../../src/sms/signing/index.js';

interface SigningVector {
  readonly id: string;
  readonly method: string;
  readonly secret: string;
  readonly params: Record<string, string>;
  readonly stringToSign: string;
  readonly signature: string;
  readonly covers?: string;
}

// The specification's vectors, copied into the repository (provenance and sha256: test/fixtures/README.md).
const { vectors } = JSON.parse(readFileSync(new URL('../fixtures/signing-vectors.json', import.meta.url), 'utf8')) as {
  vectors: SigningVector[];
};

describe('signing known-answer vectors', () => {
  it('loads the vendor example and the utility-computed vectors', () => {
    expect(vectors.length).toBeGreaterThan(1);
    expect(vectors.map((vector) => vector.id)).toContain('doc-sms-SendSms');
  });

  it.each(vectors.map((vector) => [vector.id, vector] as const))('%s', (_id, vector) => {
    expect(stringToSign(vector.method, vector.params)).toBe(vector.stringToSign);
    expect(computeSignature(vector.method, vector.params, vector.secret)).toBe(vector.signature);
    expect(verifySignature(vector.method, { ...vector.params, Signature: vector.signature }, vector.secret)).toBe(true);
  });
});
