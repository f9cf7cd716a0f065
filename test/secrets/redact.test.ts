import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/secrets/redact.js';
import { SecretSet } from '../../src/secrets/secret-set.js';

describe('redaction that follows rotation', () => {
  it('masks secrets added after the redactor was made', () => {
    const secrets = new SecretSet(['first-secret']);
    const redact = createRedactor({ secrets, params: {} });
    expect(redact('a first-secret b second-secret')).toBe('a *** b second-secret');
    secrets.add('second-secret');
    expect(redact('a first-secret b second-secret')).toBe('a *** b ***');
    // Over-encoded and lower-case spellings too: encoders differ in what they escape.
    expect(redact('x=second%2dsecret y=second\u002Dsecret')).toBe('x=*** y=***');
  });

  it('is bounded: the oldest secrets are forgotten first', () => {
    const secrets = new SecretSet([], 3);
    for (const n of [1, 2, 3, 4]) secrets.add(`secret-${n}`);
    expect(secrets.values).toEqual(['secret-2', 'secret-3', 'secret-4']);
    secrets.add('secret-2');
    expect(secrets.values).toEqual(['secret-3', 'secret-4', 'secret-2']);
    const version = secrets.version;
    secrets.add('secret-2');
    secrets.add('');
    expect(secrets.version).toBe(version);
  });
});
