import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkedAt } from '../../src/cli/checked-at.js';

const reference = (epochMs: number): string => `${new Date(epochMs).toISOString().slice(0, 19)}Z`;

describe('checkedAt', () => {
  it('is ISO 8601 to the second in UTC, whatever the order and spacing of the times asked', () => {
    const epochMs = fc.integer({ min: 0, max: 4_102_444_800_000 });
    // Times close together (the same second, the next one) as well as far apart.
    const near = fc.tuple(epochMs, fc.array(fc.integer({ min: -2_500, max: 2_500 }), { maxLength: 20 }));
    fc.assert(
      fc.property(near, ([start, steps]) => {
        let at = start;
        for (const step of [0, ...steps]) {
          at = Math.max(0, at + step);
          expect(checkedAt(at)).toBe(reference(at));
        }
      }),
    );
  });

  it('turns at the second, not before', () => {
    expect(checkedAt(Date.UTC(2026, 10, 27, 7, 43, 39, 999))).toBe('2026-11-27T07:43:39Z');
    expect(checkedAt(Date.UTC(2026, 10, 27, 7, 43, 40, 0))).toBe('2026-11-27T07:43:40Z');
    expect(checkedAt(Date.UTC(2026, 10, 27, 7, 43, 39, 0))).toBe('2026-11-27T07:43:39Z');
  });
});
