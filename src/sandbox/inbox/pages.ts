/**
 * The inbox's lists, cut into answers of bounded size. Each field of an
 * entry is bounded in characters, but JSON writes a control character as
 * six (`\u0001`): a full inbox of them made one answer about 100 MiB. Here
 * each entry is serialized once and counted in bytes as sent, and an
 * answer takes the newest entries that fit; the rest is one cursor away.
 * @module
 */

/** Bytes of JSON one list answer holds at most (a snapshot gives half to each list). */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** A run of entries, serialized. */
export interface JsonPage {
  /** The entries as JSON texts, in the order asked for. */
  readonly items: readonly string[];
  /** Their bytes, with a comma between each. */
  readonly bytes: number;
  /** Entries that matched but did not fit. */
  readonly omitted: number;
  /** The id of the oldest entry given, when older ones did not fit: pass it as `before` for the next page. */
  readonly nextBefore: number | undefined;
}

/**
 * The newest entries of `entries` (oldest first, as the store keeps them)
 * with an id below `before` that `keep` accepts, newest first, as many as
 * fit in `budget` bytes. One entry is always given when there is one: an
 * entry is a few hundred kilobytes at most, so it fits any budget used here.
 */
export function newestPage<T extends { readonly id: number }>(
  entries: readonly T[],
  budget: number,
  before: number,
  keep: (entry: T) => boolean,
): JsonPage {
  const items: string[] = [];
  let bytes = 0;
  let omitted = 0;
  let nextBefore: number | undefined;
  let oldestGiven = 0;
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const entry = entries[i] as T;
    if (entry.id >= before || !keep(entry)) continue;
    if (nextBefore !== undefined) {
      omitted += 1;
      continue;
    }
    const text = JSON.stringify(entry);
    const size = Buffer.byteLength(text) + (items.length === 0 ? 0 : 1);
    if (items.length > 0 && bytes + size > budget) {
      nextBefore = oldestGiven;
      omitted += 1;
      continue;
    }
    items.push(text);
    bytes += size;
    oldestGiven = entry.id;
  }
  return { items, bytes, omitted, nextBefore };
}

/** `[…]` of the page's items, in the order given. */
export const jsonArray = (items: readonly string[]): string => `[${items.join(',')}]`;
