/*
 * An optional capability of a shared store this package builds itself (the
 * fleet's Redis): the values of many keys in one call (`MGET`), so that a
 * batch whose hashes are known up front reads the shared cache once per
 * window instead of once per hash. Keyed by a symbol, not a method name: an
 * application's store is never called through a `getMany` whose meaning this
 * package cannot know.
 */

/** The key of a store's read-many method. */
export const READ_MANY: unique symbol = Symbol('hashscan-sms.store.readMany');

/** A store that reads many keys at once: resolves one value per key, in order (`null` or `undefined` where none). */
export interface ReadsMany {
  [READ_MANY](keys: readonly string[]): Promise<unknown>;
}

/** The read-many method of `store`, bound to it, or `undefined` when it has none. */
export function readManyOf(store: object): ((keys: readonly string[]) => Promise<unknown>) | undefined {
  const method = (store as Partial<ReadsMany>)[READ_MANY];
  return typeof method === 'function' ? (keys) => method.call(store, keys) : undefined;
}
