import { describe, expect, it, vi } from 'vitest';

type Package = typeof import('../../src/index.js');

/** A second, independent copy of the package's modules: what a CommonJS build loaded next to the ESM one gives. */
async function loadCopy(): Promise<Package> {
  vi.resetModules();
  return import('../../src/index.js');
}

describe('error classes are branded: instanceof holds across copies of the package', () => {
  it('an error built by one copy is an instance of the other copy’s class, up the chain', async () => {
    const first = await loadCopy();
    const second = await loadCopy();
    expect(first.HashScanError).not.toBe(second.HashScanError); // two copies, as with ESM + CJS

    const lookup = new second.HashScanError({ code: 'TIMEOUT', message: 'late' });
    expect(lookup instanceof first.HashScanError).toBe(true);
    expect(lookup instanceof first.HashScanSmsError).toBe(true);
    expect(lookup instanceof Error).toBe(true);
    expect(lookup instanceof first.SmsError).toBe(false);
    expect(lookup instanceof first.ConfigurationError).toBe(false);

    const send = new first.SmsError({ code: 'OUTCOME_UNKNOWN', message: 'cut', outcome: 'unknown' });
    expect(send instanceof second.SmsError).toBe(true);
    expect(send instanceof second.HashScanSmsError).toBe(true);
    expect(send instanceof second.HashScanError).toBe(false);

    expect(new second.ConfigurationError('baseUrl', 'missing') instanceof first.ConfigurationError).toBe(true);
    expect(new second.SigningError('lone surrogate') instanceof first.SigningError).toBe(true);
    expect(new second.TruncatedStreamError({ bytesRead: 10 }) instanceof first.TruncatedStreamError).toBe(true);
  });

  it('non-errors, look-alikes without the brand and other errors are not instances', async () => {
    const { HashScanError, HashScanSmsError } = await loadCopy();
    for (const value of [undefined, null, 0, 'HashScanError', {}, new Error('x'), Object.create(Error.prototype)]) {
      expect(value instanceof HashScanError).toBe(false);
      expect(value instanceof HashScanSmsError).toBe(false);
    }
    // The brand is not enumerable: JSON and util.inspect are unchanged.
    const error = new HashScanError({ code: 'NETWORK', message: 'reset' });
    expect(Object.getOwnPropertySymbols(error)).toEqual([]);
    expect(JSON.stringify(error)).not.toContain('hashscan-sms.error');
  });

  it('a subclass written by a user keeps the ordinary prototype test', async () => {
    const { HashScanError } = await loadCopy();
    class QuarantineError extends HashScanError {}
    const own = new QuarantineError({ code: 'NETWORK', message: 'reset' });
    expect(own instanceof QuarantineError).toBe(true);
    expect(own instanceof HashScanError).toBe(true);
    expect(new HashScanError({ code: 'NETWORK', message: 'reset' }) instanceof QuarantineError).toBe(false);
  });

  it('instanceof still narrows the type', async () => {
    const { HashScanError } = await loadCopy();
    const caught: unknown = new HashScanError({ code: 'CIRCUIT_OPEN', message: 'open', attempts: 0 });
    if (!(caught instanceof HashScanError)) throw new Error('expected a HashScanError');
    const code: 'CIRCUIT_OPEN' | string = caught.code; // compiles only if narrowed
    expect(code).toBe('CIRCUIT_OPEN');
  });
});
