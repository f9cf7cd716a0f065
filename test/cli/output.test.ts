import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHashLine } from '../../src/cli/hash-lines.js';
import { coalescing } from '../../src/cli/output/coalesce.js';
import { csvField, csvWriter } from '../../src/cli/output/csv.js';
import { jsonWriter, ndjsonWriter } from '../../src/cli/output/ndjson.js';
import { printable, tableWriter } from '../../src/cli/output/table.js';
import { Progress } from '../../src/cli/progress.js';
import { RangeSet } from '../../src/cli/range-set.js';
import { exitStatus } from '../../src/cli/tally.js';
import { parseCsv } from './run-cli.js';

/** A stream double that keeps what is written. */
function sink(): NodeJS.WritableStream & { text: string; columns: number } {
  const out = {
    text: '',
    columns: 40,
    write: (chunk: string): boolean => {
      out.text += chunk;
      return true;
    },
  };
  return out as unknown as NodeJS.WritableStream & { text: string; columns: number };
}

describe('coalesced output (stdout not a terminal)', () => {
  it('sends the lines of one event-loop turn in one write, in order, and calls each written callback after it', async () => {
    const writes: string[] = [];
    const out = {
      write: (text: string, done?: () => void) => {
        writes.push(text);
        setImmediate(() => done?.());
        return true;
      },
    };
    const sink = coalescing(out);
    const written: number[] = [];
    for (let i = 0; i < 5; i += 1) sink.write(`line ${i}\n`, () => written.push(i));
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['line 0\nline 1\nline 2\nline 3\nline 4\n']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toEqual([0, 1, 2, 3, 4]);
  });

  it('writes at once past 64 KiB and on flush(), never losing or reordering a line', () => {
    const writes: string[] = [];
    const sink = coalescing({ write: (text: string) => writes.push(text) });
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 64; i += 1) sink.write(line);
    expect(writes).toHaveLength(1);
    sink.write('tail\n');
    sink.flush();
    expect(writes.join('')).toBe(`${line.repeat(64)}tail\n`);
    sink.flush();
    expect(writes).toHaveLength(2);
  });
});

describe('CSV', () => {
  it('parses back to the same cells, whatever they hold (RFC 4180)', () => {
    const columns = ['a', 'b', 'c'].map((key) => ({ key, width: 0 }));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ unit: 'grapheme-composite' }), fc.string(), fc.oneof(fc.string(), fc.integer()))),
        (rows) => {
          const out = sink();
          const writer = csvWriter(out, columns);
          for (const [a, b, c] of rows) writer.write({ a, b, c });
          writer.end();
          expect(parseCsv(out.text)).toEqual([['a', 'b', 'c'], ...rows.map((row) => row.map((cell) => `${cell}`))]);
        },
      ),
    );
  });

  it('quotes only what needs it, and writes nothing for a missing cell', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField(undefined)).toBe('');
  });
});

describe('JSON and NDJSON', () => {
  it('NDJSON is one object per line; JSON one array, streamed, empty or not', () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer()))), (rows) => {
        const nd = sink();
        const json = sink();
        const a = ndjsonWriter(nd);
        const b = jsonWriter(json);
        for (const row of rows) {
          a.write(row);
          b.write(row);
        }
        a.end();
        b.end();
        expect(
          nd.text
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line)),
        ).toEqual(rows);
        expect(JSON.parse(json.text)).toEqual(rows);
      }),
    );
  });

  it("puts the columns first, in their order, then the other fields in the row's, a `__proto__` field included", () => {
    const key = fc.constantFrom('a', 'b', 'c', 'd', '__proto__', 'constructor');
    const cell = fc.oneof(fc.string(), fc.integer(), fc.constant(undefined));
    fc.assert(
      fc.property(
        fc.array(key, { maxLength: 5 }),
        fc.array(fc.array(fc.tuple(key, cell), { maxLength: 6 }), { maxLength: 4 }),
        (columnKeys, rows) => {
          const columns = columnKeys.map((name) => ({ key: name, width: 0 }));
          const nd = sink();
          const writer = ndjsonWriter(nd, columns);
          const expected: [string, string | number][][] = [];
          for (const fields of rows) {
            const row: Record<string, string | number | undefined> = {};
            for (const [name, value] of fields)
              Object.defineProperty(row, name, { value, enumerable: true, writable: true, configurable: true });
            writer.write(row);
            const present = Object.keys(row).filter((name) => row[name] !== undefined);
            const first: string[] = [...new Set<string>(columnKeys)].filter((name) => present.includes(name));
            expected.push(
              [...first, ...present.filter((name) => !first.includes(name))].map((name) => [
                name,
                row[name] as string | number,
              ]),
            );
          }
          const written = nd.text.split('\n').filter(Boolean);
          expect(written).toEqual(
            expected.map(
              (entries) =>
                `{${entries.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`).join(',')}}`,
            ),
          );
        },
      ),
    );
  });
});

describe('table', () => {
  it('escapes control characters (terminal escapes in file names) and aligns columns', () => {
    expect(printable('a\u001b[31mb\u0007')).toBe('a\\x1b[31mb\\x07');
    const out = sink();
    const writer = tableWriter(
      out,
      [
        { key: 'decision', width: 8 },
        { key: 'path', width: 0 },
      ],
      true,
    );
    writer.write({ decision: 'block', path: 'evil\u001b]0;x\u0007.exe' });
    expect(out.text).toContain('DECISION  PATH');
    expect(out.text).toContain('\u001b[31mblock   \u001b[0m  evil\\x1b]0;x\\x07.exe');
  });
});

describe('hash lines', () => {
  it('skips blanks and comments, keeps line numbers, reads sha256sum output', () => {
    expect(parseHashLine('   ', 1)).toBeUndefined();
    expect(parseHashLine('# a comment', 2)).toBeUndefined();
    expect(parseHashLine('  ABCDEF  ', 3)).toEqual({ line: 3, hash: 'ABCDEF' });
    expect(parseHashLine('abc  some file.txt', 4)).toEqual({
      line: 4,
      hash: 'abc',
      name: Buffer.from('some file.txt'),
    });
    expect(parseHashLine('abc *binary.bin', 5)).toEqual({ line: 5, hash: 'abc', name: Buffer.from('binary.bin') });
    expect(parseHashLine(Buffer.from('abcdef'), 6, 100_000)).toEqual({
      line: 6,
      hash: 'abcdef…',
      invalid: { code: 'LINE_TOO_LONG', message: 'line 6 is 100000 bytes long, more than 8192: not looked up' },
    });
  });
});

describe('RangeSet', () => {
  it('answers has() like a Set, in any insertion order, and round-trips through JSON', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 200 }), { maxLength: 300 }), (numbers) => {
        const set = new RangeSet();
        for (const n of numbers) set.add(n);
        const reference = new Set(numbers);
        const copy = RangeSet.parse(JSON.parse(JSON.stringify(set)));
        for (let n = 0; n <= 201; n += 1) {
          expect(set.has(n)).toBe(reference.has(n));
          expect(copy?.has(n)).toBe(reference.has(n));
        }
        // Ranges are disjoint and not adjacent: the smallest form.
        const ranges = set.toJSON();
        for (let i = 1; i < ranges.length; i += 1) {
          const [start] = ranges[i] as [number, number];
          const [, previousEnd] = ranges[i - 1] as [number, number];
          expect(start).toBeGreaterThan(previousEnd + 1);
        }
      }),
    );
  });

  it('deletes like a Set, keeping the smallest form and the size', () => {
    const op = fc.record({ add: fc.boolean(), n: fc.nat({ max: 60 }) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const set = new RangeSet();
        const reference = new Set<number>();
        for (const { add, n } of ops) {
          if (add) {
            set.add(n);
            reference.add(n);
          } else {
            set.delete(n);
            reference.delete(n);
          }
        }
        expect(set.size).toBe(reference.size);
        for (let n = 0; n <= 61; n += 1) expect(set.has(n)).toBe(reference.has(n));
        expect(RangeSet.parse(set.toJSON())?.size).toBe(reference.size);
      }),
    );
  });

  it('refuses malformed ranges', () => {
    expect(RangeSet.parse([[3, 1]])).toBeUndefined();
    expect(
      RangeSet.parse([
        [1, 2],
        [3, 4],
      ]),
    ).toBeUndefined();
    expect(RangeSet.parse('x')).toBeUndefined();
    expect(RangeSet.parse([[1.5, 2]])).toBeUndefined();
  });
});

describe('progress and exit status', () => {
  it('shows counts, rate, ETA and errors; draws nothing when disabled', () => {
    const err = sink();
    const progress = new Progress(err, false, true);
    Object.assign(progress.counters, { hashed: 10, looked: 5, errors: 1, total: 10 });
    expect(progress.text()).toMatch(/^10 hashed · 5\/10 looked up · [\d.]+\/s · ETA \d+s · 1 error$/);
    progress.stop();
    expect(err.text).toBe('');
  });

  it('maps decisions to exit statuses', () => {
    expect(exitStatus({ allow: 3, block: 0, review: 0 }, 'review')).toBe(0);
    expect(exitStatus({ allow: 0, block: 1, review: 5 }, 'review')).toBe(1);
    expect(exitStatus({ allow: 1, block: 0, review: 1 }, 'review')).toBe(2);
    expect(exitStatus({ allow: 1, block: 0, review: 1 }, 'block')).toBe(0);
    expect(exitStatus({ allow: 1, block: 1, review: 1 }, 'block')).toBe(1);
  });
});
