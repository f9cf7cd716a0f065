import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { durationLabel, durationText } from '../../src/config/duration.js';
import { ConfigurationError } from '../../src/errors/configuration-error.js';

const RANGE = { minMs: 1_000, maxMs: 3_650 * 86_400_000 };
const UNITS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
type Unit = keyof typeof UNITS;

describe('durationText', () => {
  it('reads a whole number and a unit, bare digits as milliseconds', () => {
    expect(['1s', '90s', '15m', '12h', '7d', '1500'].map((text) => durationText(text, '--max-age', RANGE))).toEqual([
      1_000, 90_000, 900_000, 43_200_000, 604_800_000, 1_500,
    ]);
    expect(durationText(undefined, '--max-age', RANGE)).toBeUndefined();
  });

  it('is the number times its unit, for any number and unit in range', () => {
    const units = Object.keys(UNITS) as Unit[];
    fc.assert(
      fc.property(fc.nat({ max: 100_000 }), fc.constantFrom(...units), (n, unit) => {
        const ms = n * UNITS[unit];
        const read = (): number | undefined => durationText(`${n}${unit}`, '--max-age', RANGE);
        if (ms < RANGE.minMs || ms > RANGE.maxMs) expect(read).toThrow(ConfigurationError);
        else expect(read()).toBe(ms);
      }),
    );
  });

  it('refuses anything else, naming the option, its range and what it got', () => {
    for (const text of ['', '0s', '999', '1w', '1.5h', '-1d', ' 1d', '1d ', '1 d', '1D', '3651d', '1e3', 'd']) {
      expect(() => durationText(text, '--max-age', RANGE), text).toThrow(
        `--max-age: must be a duration from 1s to 3650d (as 90s, 15m, 12h or 7d), got ${JSON.stringify(text)}`,
      );
    }
  });

  it('labels a duration in the largest unit that holds it whole, which reads back the same', () => {
    expect([86_400_000, 90_000, 300_000, 1_500].map(durationLabel)).toEqual(['1d', '90s', '5m', '1500ms']);
    fc.assert(
      fc.property(fc.integer({ min: 1_000, max: RANGE.maxMs }), (ms) => {
        expect(durationText(durationLabel(ms), '--max-age', RANGE)).toBe(ms);
      }),
    );
  });
});
