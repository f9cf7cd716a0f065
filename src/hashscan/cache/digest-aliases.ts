import { algorithmOf } from '../../hashing/hash-algorithm.js';
import type { ScanResult } from '../scan-result.js';

/**
 * The same verdict under the file's other digests, for a hit whose `data`
 * lists them. Only when the service's own digest of the queried algorithm
 * matches the query: otherwise `data` may describe another file, and caching
 * it would poison other lookups.
 */
export function digestAliases(result: ScanResult): ScanResult[] {
  if (result.verdict !== 'malicious') return [];
  const data = result.data;
  if (data === undefined || data[result.algorithm] !== result.hash) return [];
  const aliases: ScanResult[] = [];
  for (const alias of [data.md5, data.sha1, data.sha256]) {
    const algorithm = alias === undefined ? undefined : algorithmOf(alias);
    if (alias === undefined || algorithm === undefined || alias === result.hash) continue;
    aliases.push(Object.freeze({ ...result, hash: alias, algorithm }));
  }
  return aliases;
}
