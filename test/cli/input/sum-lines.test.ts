import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHashLine } from '../../../src/cli/hash-lines.js';
import { hashLikeField } from '../../../src/cli/input/sum-fields.js';

/** A hash as a tool writes it: 32, 40 or 64 hex digits, either case. */
const HEX = '0123456789abcdefABCDEF';
const hash = fc
  .constantFrom(32, 40, 64)
  .chain((length) => fc.array(fc.integer({ min: 0, max: HEX.length - 1 }), { minLength: length, maxLength: length }))
  .map((digits) => Buffer.from(digits.map((d) => HEX[d]).join('')));

/** File names of any bytes but NUL, weighted towards the ones coreutils escapes. */
const name = fc
  .array(fc.oneof(fc.constantFrom(0x5c, 0x0a, 0x0d, 0x20, 0x09, 0x2a, 0x6e, 0x72), fc.integer({ min: 1, max: 255 })), {
    minLength: 1,
    maxLength: 40,
  })
  .map((bytes) => Buffer.from(bytes));

/** GNU coreutils' output line without --zero: a leading `\` and `\\`, `\n`, `\r` when the name needs them. */
function sha256sumLine(digest: Buffer, file: Buffer): Buffer {
  const needs = file.includes(0x5c) || file.includes(0x0a) || file.includes(0x0d);
  if (!needs) return Buffer.concat([digest, Buffer.from('  '), file]);
  const escaped = file.toString('latin1').replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
  return Buffer.concat([Buffer.from('\\'), digest, Buffer.from('  '), Buffer.from(escaped, 'latin1')]);
}

describe('sha256sum lines (property)', () => {
  it('reads back every name coreutils escapes, exactly (or refuses it when the name holds a hash)', () => {
    fc.assert(
      fc.property(hash, name, (digest, file) => {
        const parsed = parseHashLine(sha256sumLine(digest, file), 1);
        if (hashLikeField(file, 0, file.length) !== undefined) {
          expect(parsed?.invalid?.code).toBe('SECOND_HASH');
          return;
        }
        expect(parsed).toEqual({ line: 1, hash: digest.toString('latin1'), name: file });
      }),
      { numRuns: 500 },
    );
  });

  it('reads back every name of `sha256sum -z` (no escapes, CR and LF raw) under -0', () => {
    fc.assert(
      fc.property(hash, name, (digest, file) => {
        const parsed = parseHashLine(
          Buffer.concat([digest, Buffer.from('  '), file]),
          1,
          undefined,
          0,
          undefined,
          'nul',
        );
        if (hashLikeField(file, 0, file.length) !== undefined) expect(parsed?.invalid?.code).toBe('SECOND_HASH');
        else expect(parsed).toEqual({ line: 1, hash: digest.toString('latin1'), name: file });
      }),
      { numRuns: 500 },
    );
  });

  it('never accepts a line with two hashes as one hash and a name', () => {
    const space = fc.constantFrom(' ', '  ', '\t', '\r', ' *', '  *', ' \t ', '\r\t');
    const words = fc.array(
      fc
        .array(fc.integer({ min: 0x21, max: 0x7e }), { minLength: 1, maxLength: 8 })
        .map((b) => Buffer.from(b).toString('latin1')),
      { maxLength: 3 },
    );
    fc.assert(
      fc.property(
        fc.constantFrom('', ' ', '\t', '\\'),
        hash,
        space,
        words,
        space,
        hash,
        fc.constantFrom('', ' ', '\t', ' tail', '\ttail'),
        fc.constantFrom('text', 'nul') as fc.Arbitrary<'text' | 'nul'>,
        (lead, first, gap, between, gap2, second, tail, mode) => {
          const middle = between.length === 0 ? gap : `${gap}${between.join(' ')}${gap2}`;
          const line = Buffer.concat([Buffer.from(`${lead}`), first, Buffer.from(middle), second, Buffer.from(tail)]);
          const parsed = parseHashLine(line, 3, undefined, 0, undefined, mode);
          expect(parsed?.invalid).toBeDefined();
          expect(parsed?.invalid?.message).toMatch(/^line 3 /);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('sha256sum lines (cases)', () => {
  const H = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
  it.each([
    [`${H}\r${H}`, 'CARRIAGE_RETURN'],
    [`${H}  a\rb`, 'CARRIAGE_RETURN'],
    [`\\${H}  bad\\tescape`, 'BAD_ESCAPE'],
    [`\\${H}  ends-with\\`, 'BAD_ESCAPE'],
    [`${H}\t${H.slice(0, 32)}`, 'SECOND_HASH'],
  ])('refuses %j (%s)', (line, code) => {
    expect(parseHashLine(line, 9)).toMatchObject({ line: 9, hash: H, invalid: { code } });
  });

  it('keeps a name that merely holds hex, or is a hash under a folder', () => {
    expect(parseHashLine(`${H}  ./${H}`, 1)).toEqual({ line: 1, hash: H, name: Buffer.from(`./${H}`) });
    expect(parseHashLine(`${H}  ${H}x`, 1)?.invalid).toBeUndefined();
    expect(parseHashLine(`${H}  a\rb`, 1, undefined, 0, undefined, 'nul')).toEqual({
      line: 1,
      hash: H,
      name: Buffer.from('a\rb'),
    });
  });
});
