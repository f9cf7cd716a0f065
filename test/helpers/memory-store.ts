import type { SharedStore } from '../../src/store/shared-store.js';

/**
 * A Keyv-shaped store in a Map, with TTLs on `Date.now()`: the shape of a
 * shared store without Redis, for tests where sharing is not the subject.
 */
export class MemoryStore implements SharedStore {
  readonly entries = new Map<string, { value: unknown; expiresAt: number }>();
  readonly calls: string[] = [];

  async get(key: string): Promise<unknown> {
    this.calls.push(`get ${key}`);
    const entry = this.entries.get(key);
    if (entry === undefined || entry.expiresAt <= Date.now()) return undefined;
    return entry.value;
  }

  async set(key: string, value: unknown, ttl?: number): Promise<boolean> {
    this.calls.push(`set ${key}`);
    this.entries.set(key, { value, expiresAt: ttl === undefined ? Number.POSITIVE_INFINITY : Date.now() + ttl });
    return true;
  }

  async delete(key: string): Promise<boolean> {
    return this.entries.delete(key);
  }
}
