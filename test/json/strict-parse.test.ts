import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_DEPTH, parseStrictJson, StrictJsonError } from '../../src/json/strict-parse.js';

/** Our reading of `text`, or the error it threw (anything but a StrictJsonError fails the test). */
function read(text: string): ReturnType<typeof parseStrictJson> | StrictJsonError {
  try {
    return parseStrictJson(text);
  } catch (error) {
    expect(error).toBeInstanceOf(StrictJsonError);
    return error as StrictJsonError;
  }
}

/** JSON-ish characters, so that random texts often come close to JSON. */
const jsonish = fc.string({
  unit: fc.constantFrom(
    ...'{}[],:"\\ \t\n\r0123456789-+.eEabfnrtulsxu'.split(''),
    '\u0000',
    '\u001f',
    '\u2028',
    '\ud800',
    'true',
    'false',
    'null',
    '"__proto__"',
    '\\u00e9',
  ),
  maxLength: 40,
});

/** A valid JSON text with one character inserted, deleted or replaced. */
const mutated = fc
  .tuple(fc.jsonValue(), fc.nat(), fc.constantFrom('insert', 'delete', 'replace'), fc.constantFrom(...'{}[],:"\\ 0-.e'))
  .map(([value, position, edit, char]) => {
    const text = JSON.stringify(value);
    const at = position % (text.length + 1);
    if (edit === 'insert') return text.slice(0, at) + char + text.slice(at);
    if (edit === 'delete') return text.slice(0, at) + text.slice(at + 1);
    return text.slice(0, at) + char + text.slice(at + 1);
  });

describe('parseStrictJson', () => {
  it('reads every JSON text exactly as JSON.parse does (no repeated keys)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const { value: ours, duplicates } = parseStrictJson(text);
        expect(duplicates).toEqual([]);
        expect(ours).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('accepts and rejects the same texts as JSON.parse, and throws only StrictJsonError', () => {
    fc.assert(
      fc.property(fc.oneof(jsonish, mutated), (text) => {
        let native: unknown;
        let nativeFailed = false;
        try {
          native = JSON.parse(text);
        } catch {
          nativeFailed = true;
        }
        const ours = read(text);
        if (nativeFailed) {
          expect(ours).toBeInstanceOf(StrictJsonError);
          expect((ours as StrictJsonError).kind).toBe('syntax');
        } else {
          expect(ours).not.toBeInstanceOf(StrictJsonError);
          const { value, duplicates } = ours as ReturnType<typeof parseStrictJson>;
          expect(value).toStrictEqual(native);
          if (duplicates.length > 0) expect(text).toMatch(/\{/);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('reports a repeated key at any depth with its path and every value, the object keeping the last', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.nat(3)), { maxLength: 6 }),
        fc.string({ maxLength: 6 }),
        fc.jsonValue({ maxDepth: 2 }),
        fc.jsonValue({ maxDepth: 2 }),
        (path, key, firstValue, secondValue) => {
          // Through JSON once, as the parser sees them (-0 is written 0).
          const [first, second] = [firstValue, secondValue].map((value) => JSON.parse(JSON.stringify(value)));
          // Wrap `{key: first, key: second}` in the containers the path names.
          let text = `{${JSON.stringify(key)}:${JSON.stringify(first)},${JSON.stringify(key)}:${JSON.stringify(second)}}`;
          for (const step of [...path].reverse()) {
            text =
              typeof step === 'number'
                ? `[${Array.from({ length: step }, () => '0').join(',')}${step > 0 ? ',' : ''}${text}]`
                : `{${JSON.stringify(step)}:${text}}`;
          }
          const { value, duplicates } = parseStrictJson(text);
          expect(duplicates).toHaveLength(1);
          expect(duplicates[0]).toStrictEqual({ path, key, values: [first, second] });
          let inner = value as unknown as Record<string | number, unknown>;
          for (const step of path) inner = inner[step] as Record<string | number, unknown>;
          expect(inner[key]).toStrictEqual(second);
        },
      ),
    );
  });

  it('keeps __proto__, constructor and prototype as ordinary own fields', () => {
    const { value } = parseStrictJson(
      '{"__proto__":{"is_virus":true},"constructor":null,"prototype":1,"nested":{"__proto__":null}}',
    );
    const object = value as Record<string, unknown>;
    expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
    expect(Object.hasOwn(object, '__proto__')).toBe(true);
    expect(Object.keys(object)).toEqual(['__proto__', 'constructor', 'prototype', 'nested']);
    expect(Object.keys(Object.getOwnPropertyDescriptor(object, '__proto__')?.value as object)).toEqual(['is_virus']);
    expect(Object.keys(object.nested as object)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).is_virus).toBeUndefined();
    expect(parseStrictJson('{"__proto__":1,"__proto__":2,"__proto__":3}').duplicates).toStrictEqual([
      { path: [], key: '__proto__', values: [1, 2, 3] },
    ]);
    // An escaped spelling is the same key.
    expect(parseStrictJson('{"a":1,"\\u0061":2}').duplicates).toHaveLength(1);
  });

  it('refuses nesting past maxDepth with a typed error, iteratively, however deep', () => {
    const deep = (levels: number, open = '[', close = ']') => open.repeat(levels) + close.repeat(levels);
    expect(() => parseStrictJson(deep(DEFAULT_MAX_DEPTH))).not.toThrow();
    for (const text of [deep(DEFAULT_MAX_DEPTH + 1), deep(1_000_000), '['.repeat(1_000_000), '{"a":'.repeat(200_000)]) {
      const error = read(text);
      expect(error).toBeInstanceOf(StrictJsonError);
      expect((error as StrictJsonError).kind).toBe('depth');
    }
    expect(parseStrictJson('[[[1]]]', { maxDepth: 3 }).value).toEqual([[[1]]]);
    expect(() => parseStrictJson('[[[[1]]]]', { maxDepth: 3 })).toThrow(
      expect.objectContaining({ kind: 'depth', message: 'nested deeper than 3 levels (at offset 3)' }),
    );
  });

  it('freezes every object and array when asked, without a recursive walk', () => {
    const depth = DEFAULT_MAX_DEPTH;
    const { value } = parseStrictJson(`${'{"a":'.repeat(depth - 1)}[1]${'}'.repeat(depth - 1)}`, { freeze: true });
    let inner: unknown = value;
    for (let level = 1; level < depth; level += 1) {
      expect(Object.isFrozen(inner)).toBe(true);
      inner = (inner as Record<string, unknown>).a;
    }
    expect(inner).toEqual([1]);
    expect(Object.isFrozen(inner)).toBe(true);
    expect(Object.isFrozen(parseStrictJson('{"a":[]}').value)).toBe(false);
    const { duplicates } = parseStrictJson('{"a":{"b":[1]},"a":2}', { freeze: true });
    const first = duplicates[0]?.values[0] as { b: unknown };
    expect(Object.isFrozen(first.b)).toBe(true);
  });
});
