/**
 * The contract of a store outside the process that the lookups' shared cache
 * level uses: an application's Keyv-compatible store, or the fleet's Redis.
 */

/**
 * A Keyv-compatible store: what the shared cache level needs of it. A
 * `Keyv` instance is one (`new Keyv({ store: new KeyvRedis(url) })`), and so
 * is any object with these three async methods. Values written are strings.
 */
export interface SharedStore {
  /** The value under `key`, or `undefined` (or `null`) when there is none. */
  get(key: string): Promise<unknown>;
  /** Stores `value` under `key` for `ttl` milliseconds. */
  set(key: string, value: string, ttl?: number): Promise<unknown>;
  /** Removes `key`. */
  delete(key: string): Promise<unknown>;
}
