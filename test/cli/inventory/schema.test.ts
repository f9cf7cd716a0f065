import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COLUMNS, checkRow } from '../../../src/cli/inventory/schema.js';

/** A row as the store reads it back: the path in hex, then the other columns in order. */
const good = [
  Buffer.from('/srv/t\xff', 'latin1').toString('hex'),
  5,
  1_700_000_000_123.456,
  42,
  2049,
  'a'.repeat(64),
  null,
  'b'.repeat(32),
  'sha256',
  'malicious',
  'block',
  'x',
  1_700_000_000_000,
  '2024-01-01 00:00:00',
  null,
];

const edited = (column: (typeof COLUMNS)[number], value: unknown): unknown[] =>
  good.map((cell, at) => (COLUMNS[at] === column ? value : cell));

describe('checkRow (every row read back from an inventory)', () => {
  it('takes a row that checks, as an array or by column name', () => {
    expect(checkRow(good)).toBe(good);
    expect(checkRow(Object.fromEntries(COLUMNS.map((name, at) => [name, good[at]])))).toEqual(good);
  });

  it.each([
    ['path', 'abc', 'path:'],
    ['path', '', 'path:'],
    ['path', null, 'path:'],
    ['size', -1, 'size:'],
    ['size', 1.5, 'size:'],
    ['size', '5', 'size:'],
    ['mtime_ms', null, 'mtime_ms:'],
    ['ino', Number.POSITIVE_INFINITY, 'ino:'],
    ['dev', '2049', 'dev:'],
    ['sha256', 'A'.repeat(64), 'sha256:'],
    ['sha1', 'a'.repeat(39), 'sha1:'],
    ['md5', 5, 'md5:'],
    ['algorithm', 'sha512', 'algorithm:'],
    ['verdict', 'clean', 'verdict:'],
    ['decision', 'deny', 'decision:'],
    ['source', 'x'.repeat(1025), 'source:'],
    ['checked_at', -5, 'checked_at:'],
    ['first_seen', 'x'.repeat(65), 'first_seen:'],
    ['last_seen', 7, 'last_seen:'],
    ['sha256', null, 'no digest for its algorithm'],
    ['checked_at', null, 'an answer without its time'],
    ['decision', 'allow', 'a decision its verdict does not give'],
  ] as const)('refuses %s = %j, saying why', (column, value, why) => {
    expect(checkRow(edited(column, value))).toContain(why);
  });

  it('refuses a row of another width, and never throws on arbitrary values', () => {
    expect(checkRow(good.slice(1))).toMatch(/^row: 14 columns/);
    fc.assert(
      fc.property(fc.array(fc.anything(), { maxLength: 20 }), (row) => {
        const checked = checkRow(row);
        expect(typeof checked === 'string' || (checked as unknown) === row).toBe(true);
      }),
    );
  });
});
