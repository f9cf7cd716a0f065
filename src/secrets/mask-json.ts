import type { Redactor } from './redact.js';

/**
 * A parsed JSON body with the redactor applied to every string in it, keys
 * included: what a result may hand back of a body that echoed a secret.
 * Masking after the parse catches every escape a JSON writer may choose.
 * `value` itself when nothing needs masking, which is told from `text`, the
 * body it was parsed from, in one pass: without a backslash every string of
 * the value is a slice of the text. Copies are frozen, as the strict reader's
 * objects are. The strict reader bounds the depth, so the walk is bounded.
 */
export function maskJson<T>(text: string, value: T, redact: Redactor): T {
  if (!text.includes('\\') && redact(text) === text) return value;
  return masked(value, redact) as T;
}

function masked(value: unknown, redact: Redactor): unknown {
  if (typeof value === 'string') return redact(value);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => masked(item, redact));
    return items.every((item, i) => item === value[i]) ? value : Object.freeze(items);
  }
  const given = Object.entries(value);
  const entries = given.map(([key, item]) => [redact(key), masked(item, redact)] as const);
  const same = entries.every(([key, item], i) => key === given[i]?.[0] && item === given[i]?.[1]);
  // `Object.fromEntries` defines each key, `__proto__` included, as an ordinary field.
  return same ? value : Object.freeze(Object.fromEntries(entries));
}
