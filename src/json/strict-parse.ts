/**
 * One strict JSON reader for every body that comes off the wire.
 *
 * `JSON.parse` alone keeps the last of repeated keys (so `"is_virus":true,
 * "is_virus":false` reads as a non-detection) and leaves deep nesting to the
 * recursive code that walks the value later (a deep freeze, a schema), which
 * overflows the stack. This reader first makes one fast pass over the text
 * ({@link scanStructure}) that finds repeated keys and refuses nesting deeper
 * than `maxDepth`, then lets the native `JSON.parse` build the value, so it
 * accepts exactly the JSON `JSON.parse` accepts and builds the same value:
 *
 * - every repeated key is reported in `duplicates`, with all its values;
 * - `__proto__`, `constructor` and `prototype` members are own data
 *   properties like any other (`JSON.parse` defines, never assigns, them),
 *   seen by `Object.keys` and strict schemas. Read values in place or copy
 *   them with spread or `structuredClone`: a copy by assignment
 *   (`Object.assign`, `z.record`) would turn `__proto__` into a prototype;
 * - nothing recursive runs on unbounded depth (the optional freeze is iterative).
 *
 * It throws nothing but {@link StrictJsonError}.
 */

import { memberValues, type RepeatedKey, scanStructure } from './structure-scan.js';

/** A parsed JSON value. */
type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;

/** A parsed JSON object. */
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

/** A key given more than once in one object. */
export interface DuplicateKey {
  /** Path of the object holding the key: keys and array indices from the root (`[]` for the root). */
  readonly path: readonly (string | number)[];
  /** The repeated key. */
  readonly key: string;
  /** Every value given for the key, in text order; the object holds the last one, as `JSON.parse` does. */
  readonly values: readonly JsonValue[];
}

/** What {@link parseStrictJson} read. */
export interface StrictJson {
  readonly value: JsonValue;
  /** Every repeated key, in text order; empty for well-formed input. */
  readonly duplicates: readonly DuplicateKey[];
}

/** Options of {@link parseStrictJson}. */
export interface StrictJsonOptions {
  /** Deepest nesting of arrays and objects accepted. @defaultValue {@link DEFAULT_MAX_DEPTH} */
  readonly maxDepth?: number;
  /** Freezes every array and object of the value (a deep freeze without a recursive walk). @defaultValue false */
  readonly freeze?: boolean;
}

/**
 * Nesting accepted by default. The answers this package reads are two levels
 * deep; 512 leaves room for any real answer while keeping every later walk
 * over the value (zod, `JSON.stringify`, a user's own code) far from the stack limit.
 */
export const DEFAULT_MAX_DEPTH = 512;

/** Why a text could not be read: not JSON (`syntax`) or nested deeper than allowed (`depth`). */
export class StrictJsonError extends Error {
  /** `syntax`: not JSON; `depth`: nested deeper than `maxDepth`. */
  readonly kind: 'syntax' | 'depth';

  constructor(kind: 'syntax' | 'depth', message: string) {
    super(message);
    this.name = 'StrictJsonError';
    this.kind = kind;
  }
}

const NO_DUPLICATES: readonly DuplicateKey[] = Object.freeze([]);

/**
 * Reads `text` as JSON, strictly (see the module comment).
 *
 * The usual answer costs `JSON.parse` plus a walk that freezes and counts
 * keys and a native count of `:`, `{` and `[`: the structure pass runs only
 * when those counts leave room for a repeated key or deep nesting.
 *
 * @throws {StrictJsonError} `depth` past `maxDepth` (checked first), `syntax` where `JSON.parse` throws.
 */
export function parseStrictJson(text: string, options: StrictJsonOptions = {}): StrictJson {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  // Fewer containers than the limit cannot nest past it; only more calls for the scan.
  if (occurrences(text, '{') + occurrences(text, '[') > maxDepth) refuseDepth(text, maxDepth);
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    // V8's message quotes the text; the text is the server's, so it stays out.
    throw new StrictJsonError('syntax', 'not valid JSON');
  }
  // Each key occurrence has its own `:`; when the object keys add up to that
  // count, no key was given twice. Otherwise (a repetition, or `:` in strings) look closely.
  const keys = walk(value, options.freeze === true);
  let duplicates = NO_DUPLICATES;
  if (keys !== occurrences(text, ':')) {
    const { repeated } = scanStructure(text, maxDepth);
    if (repeated !== undefined) duplicates = duplicatesOf(text, repeated, options.freeze === true);
  }
  return { value, duplicates };
}

function refuseDepth(text: string, maxDepth: number): void {
  const { tooDeepAt } = scanStructure(text, maxDepth);
  if (tooDeepAt >= 0) {
    throw new StrictJsonError('depth', `nested deeper than ${maxDepth} levels (at offset ${tooDeepAt})`);
  }
}

/** How many times `char` occurs in `text` (native search, no per-character loop in JS). */
function occurrences(text: string, char: string): number {
  let count = 0;
  for (let at = text.indexOf(char); at >= 0; at = text.indexOf(char, at + 1)) count += 1;
  return count;
}

/** Every repeated key with all its values (the text is valid JSON by now); one walk per object. */
function duplicatesOf(text: string, repeated: readonly RepeatedKey[], freeze: boolean): DuplicateKey[] {
  const byObject = new Map<number, Set<string>>();
  for (const { objectStart, key } of repeated) {
    const keys = byObject.get(objectStart) ?? new Set<string>();
    keys.add(key);
    byObject.set(objectStart, keys);
  }
  const texts = new Map<number, Map<string, string[]>>();
  for (const [objectStart, keys] of byObject) texts.set(objectStart, memberValues(text, objectStart, keys));
  return repeated.map(({ path, key, objectStart }) => {
    const values = (texts.get(objectStart)?.get(key) ?? []).map((value) => JSON.parse(value) as JsonValue);
    if (freeze) walk(values, true);
    return { path, key, values };
  });
}

/**
 * Counts the own keys of every object in `root` and, if asked, freezes every
 * object and array: one walk, with a list of pending containers instead of recursion.
 */
function walk(root: unknown, freeze: boolean): number {
  if (typeof root !== 'object' || root === null) return 0;
  let keys = 0;
  const pending: object[] = [];
  for (let value: object | undefined = root; value !== undefined; value = pending.pop()) {
    if (freeze) Object.freeze(value);
    if (Array.isArray(value)) {
      for (const inner of value) if (typeof inner === 'object' && inner !== null) pending.push(inner);
    } else {
      for (const key in value) {
        // Own keys only: an enumerable key someone added to Object.prototype is not the body's.
        if (!Object.hasOwn(value, key)) continue;
        keys += 1;
        const inner = (value as Record<string, unknown>)[key];
        if (typeof inner === 'object' && inner !== null) pending.push(inner);
      }
    }
  }
  return keys;
}
