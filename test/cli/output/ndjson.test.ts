import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ndjsonWriter } from '../../../src/cli/output/ndjson.js';
import type { Row } from '../../../src/cli/output/row.js';

const COLUMNS = ['decision', 'verdict', 'sha256', 'size', 'path', 'checkedAt'].map((key) => ({ key, width: 0 }));

/** The line as an object rebuilt in column order then the row's own order would give it. */
function reference(row: Row): string {
  const entries: [string, string | number][] = [];
  const placed = new Set<string>();
  for (const key of [...COLUMNS.map((column) => column.key), ...Object.keys(row)]) {
    const value = Object.hasOwn(row, key) ? row[key] : undefined;
    if (value === undefined || placed.has(key)) continue;
    placed.add(key);
    entries.push([key, value]);
  }
  return `${JSON.stringify(Object.fromEntries(entries))}\n`;
}

describe('ndjsonWriter', () => {
  it('writes each row as the JSON object of its fields, in column order then its own, absent ones left out', () => {
    // Keys that are not array indices: an object puts those first, a row never has them.
    const key = fc.oneof(
      fc.constantFrom(...COLUMNS.map((column) => column.key), 'previousDecision', '__proto__', 'a"b'),
      fc.string().filter((text) => !/^\d+$/.test(text)),
    );
    const value = fc.oneof(fc.string(), fc.double(), fc.integer(), fc.constant(undefined));
    fc.assert(
      fc.property(fc.array(fc.tuple(key, value), { maxLength: 12 }), (pairs) => {
        const row: Row = Object.fromEntries(pairs);
        let line = '';
        ndjsonWriter({ write: (text) => (line += text) }, COLUMNS).write(row);
        expect(line).toBe(reference(row));
      }),
    );
  });
});
