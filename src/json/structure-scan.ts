/**
 * One fast pass over a JSON text that finds what `JSON.parse` hides: keys
 * repeated within one object, and nesting deeper than a limit. It builds no
 * values and checks no grammar (`JSON.parse` does both, natively, once this
 * pass found nothing to refuse), so on a text that is not JSON its findings
 * are meaningless. Iterative: no recursion whatever the nesting.
 */

/** A key that one object gives more than once. */
export interface RepeatedKey {
  /** Keys and array indices from the root to the object. */
  readonly path: (string | number)[];
  readonly key: string;
  /** Offset of the object's `{`. */
  readonly objectStart: number;
}

/** What {@link scanStructure} found. */
export interface Structure {
  /** Offset of the first container past the depth limit, or -1. */
  readonly tooDeepAt: number;
  /** Repeated keys in text order, or `undefined` when there are none (the usual case). */
  readonly repeated: RepeatedKey[] | undefined;
}

/** An object past this many keys looks its keys up in a `Map` instead of a list. */
const LINEAR_KEYS = 16;

interface Frame {
  readonly isArray: boolean;
  /** Array: index of the current element. */
  index: number;
  /** Object: the current key; whether the next string is a key. */
  key: string;
  expectKey: boolean;
  readonly start: number;
  keys: string[] | undefined;
  lookup: Set<string> | undefined;
  /** Keys already reported as repeated. */
  reported: Set<string> | undefined;
}

export function scanStructure(text: string, maxDepth: number): Structure {
  const stack: Frame[] = [];
  let repeated: RepeatedKey[] | undefined;
  let top: Frame | undefined;
  const length = text.length;
  for (let at = 0; at < length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 0x22 /* " */) {
      const end = stringEnd(text, at);
      if (end < 0) break;
      if (top?.expectKey) {
        top.expectKey = false;
        top.key = keyOf(text, at, end);
        if (isRepetition(top, top.key)) {
          repeated ??= [];
          repeated.push({ path: pathOf(stack), key: top.key, objectStart: top.start });
        }
      }
      at = end;
    } else if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
      if (stack.length >= maxDepth) return { tooDeepAt: at, repeated };
      const isArray = code === 0x5b;
      top = {
        isArray,
        index: 0,
        key: '',
        expectKey: !isArray,
        start: at,
        keys: undefined,
        lookup: undefined,
        reported: undefined,
      };
      stack.push(top);
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
      stack.pop();
      top = stack[stack.length - 1];
    } else if (code === 0x2c /* , */ && top !== undefined) {
      if (top.isArray) top.index += 1;
      else top.expectKey = true;
    }
  }
  return { tooDeepAt: -1, repeated };
}

/** Offset of the quote closing the string opened at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  while (end > 0) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes += 1;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return -1;
}

/** The key a string token spells: `"a"` and `"\u0061"` are the same key. */
function keyOf(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(text.slice(start, end + 1)) as string;
  } catch {
    return raw; // Not JSON: JSON.parse of the whole text will say so.
  }
}

/** Records a key of an object; true on its first repetition (later ones are already reported). */
function isRepetition(frame: Frame, key: string): boolean {
  if (frame.lookup === undefined) {
    frame.keys ??= [];
    if (!frame.keys.includes(key)) {
      frame.keys.push(key);
      if (frame.keys.length > LINEAR_KEYS) frame.lookup = new Set(frame.keys);
      return false;
    }
  } else if (!frame.lookup.has(key)) {
    frame.lookup.add(key);
    return false;
  }
  if (frame.reported?.has(key)) return false;
  frame.reported ??= new Set();
  frame.reported.add(key);
  return true;
}

/** Path to the innermost container (computed only for a repetition, which is rare). */
function pathOf(stack: readonly Frame[]): (string | number)[] {
  return stack.slice(0, -1).map((frame) => (frame.isArray ? frame.index : frame.key));
}

/** Offset just past the JSON value that starts at or after `start` (whitespace skipped); the text must be JSON. */
function valueEnd(text: string, start: number): number {
  let depth = 0;
  for (let at = start; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 0x22) {
      at = stringEnd(text, at);
      if (depth === 0) return at + 1;
    } else if (code === 0x7b || code === 0x5b) {
      depth += 1;
    } else if (code === 0x7d || code === 0x5d) {
      depth -= 1;
      if (depth <= 0) return depth === 0 ? at + 1 : at;
    } else if (code === 0x2c && depth === 0) {
      return at;
    }
  }
  return text.length;
}

/**
 * The value of every occurrence of each of `keys` in the object at
 * `objectStart`, as text, in one walk over its members (the text must be JSON).
 */
export function memberValues(text: string, objectStart: number, keys: ReadonlySet<string>): Map<string, string[]> {
  const values = new Map<string, string[]>();
  let at = objectStart + 1;
  for (;;) {
    const keyStart = text.indexOf('"', at);
    if (keyStart < 0 || closesBefore(text, at, keyStart)) return values;
    const keyEnd = stringEnd(text, keyStart);
    const valueStart = text.indexOf(':', keyEnd) + 1;
    const end = valueEnd(text, valueStart);
    const key = keyOf(text, keyStart, keyEnd);
    if (keys.has(key)) {
      const list = values.get(key) ?? [];
      list.push(text.slice(valueStart, end));
      values.set(key, list);
    }
    // Past the value, to the `,` or `}` that follows it.
    at = end;
    while (at < text.length && text.charCodeAt(at) !== 0x2c && text.charCodeAt(at) !== 0x7d) at += 1;
    if (text.charCodeAt(at) === 0x7d) return values;
    at += 1;
  }
}

/** Whether the object closes (`}`) between `from` and the next key's quote at `until`. */
function closesBefore(text: string, from: number, until: number): boolean {
  const close = text.indexOf('}', from);
  return close >= 0 && close < until;
}
