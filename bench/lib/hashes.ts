import { randomBytes } from 'node:crypto';

/** `count` distinct random SHA-256 hex digests (lower case), fresh for every call. */
export function uniqueHashes(count: number): string[] {
  const pool = randomBytes(32 * count).toString('hex');
  return Array.from({ length: count }, (_, i) => pool.slice(i * 64, i * 64 + 64));
}

/** `count` hashes of which half repeat an earlier one, shuffled; returns the list and its distinct count. */
export function halfRepeated(count: number): { hashes: string[]; unique: number } {
  const unique = Math.ceil(count / 2);
  const distinct = uniqueHashes(unique);
  const hashes = [...distinct, ...distinct.slice(0, count - unique)];
  for (let i = hashes.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [hashes[i], hashes[j]] = [hashes[j] as string, hashes[i] as string];
  }
  return { hashes, unique };
}
