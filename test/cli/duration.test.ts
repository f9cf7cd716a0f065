import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flagDuration } from '../../src/cli/duration.js';
import { UsageError } from '../../src/cli/usage-error.js';

const UNITS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

describe('duration flags (--max-age)', () => {
  it('reads a positive whole number with a unit', () => {
    expect(flagDuration('90s', 'max-age')).toBe(90_000);
    expect(flagDuration('15m', 'max-age')).toBe(900_000);
    expect(flagDuration('12h', 'max-age')).toBe(43_200_000);
    expect(flagDuration('7d', 'max-age')).toBe(604_800_000);
    expect(flagDuration(undefined, 'max-age')).toBeUndefined();
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3650 }), fc.constantFrom('s', 'm', 'h', 'd'), (n, unit) => {
        expect(flagDuration(`${n}${unit}`, 'max-age')).toBe(n * UNITS[unit]);
      }),
    );
  });

  it('refuses anything else with a usage error naming the flag', () => {
    for (const bad of ['0s', '', '5', '1.5h', '-1d', '1w', ' 1s', '1S', '3651d', '01s']) {
      expect(() => flagDuration(bad, 'max-age'), bad).toThrow(UsageError);
    }
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!/^[1-9]\d*[smhd]$/.test(text));
        expect(() => flagDuration(text, 'max-age')).toThrow(/--max-age must be a positive duration/);
      }),
    );
  });
});
