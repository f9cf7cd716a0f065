/**
 * `util.inspect`'s hook without importing `node:util` (a Worker has none):
 * the symbol Node, Bun and Deno register, and the `inspect` function they
 * hand the hook as its third argument.
 */
export const INSPECT: unique symbol = Symbol.for('nodejs.util.inspect.custom') as never;

/** Formats `value` with the runtime's `inspect` when it handed one, else as JSON. */
export function inspectWith(inspect: unknown, value: unknown, options?: object): string {
  return typeof inspect === 'function' ? String(inspect(value, options)) : JSON.stringify(value);
}
