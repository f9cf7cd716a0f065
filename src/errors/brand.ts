/**
 * Brands for the package's error classes, so `instanceof` holds across copies of the package.
 *
 * When both builds load in one process (an ESM app that `require()`s a CommonJS dependency which
 * itself requires `hashscan-sms`, or two installed copies), each has its own classes, and plain
 * `instanceof` says an error from one copy is not an error of the other. Each class here carries a
 * `Symbol.for` brand (shared by every copy in the process) on its prototype, and `instanceof`
 * checks the brand: undici's `Symbol.for('undici.error.…')` model. Imports nothing.
 */

/** Class → its brand, for the classes of this copy only (a user's subclass has none). */
const brands = new WeakMap<object, symbol>();

/** The brand key of one of the package's error classes: the same symbol in every copy of the package. */
function errorBrand(className: string): symbol {
  return Symbol.for(`hashscan-sms.error.${className}`);
}

/**
 * Marks `target` (from its `static {}` block) and its instances with the brand of `className`, and names
 * the class `className`. Instances of subclasses carry every brand up the chain, as they pass every
 * `instanceof` up it.
 *
 * The name is set, not inferred: bundlers rename classes (esbuild's `_HashScanError` in both builds, a
 * minifier's one letter in the CLI), and `error.name`, `String(error)` and `error.constructor.name` are
 * what logs and error trackers group on. An explicit name costs a few bytes per class where keeping
 * every name in the bundle costs every function of it.
 */
export function brandErrorClass(target: abstract new (...args: never[]) => unknown, className: string): void {
  const brand = errorBrand(className);
  brands.set(target, brand);
  Object.defineProperty(target, 'name', { value: className, configurable: true });
  Object.defineProperty(target.prototype, brand, { value: true, enumerable: false });
}

/**
 * `value instanceof target` for the package's classes: by brand, whichever copy built `value`.
 * Any other class (a user's subclass) keeps the ordinary prototype-chain test.
 */
export function isBranded(target: object, value: unknown): boolean {
  const brand = brands.get(target);
  if (brand === undefined) return Function.prototype[Symbol.hasInstance].call(target, value);
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    (value as Record<symbol, unknown>)[brand] === true
  );
}
