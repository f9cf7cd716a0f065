import type { Column } from './output/index.js';
import { TIME_COLUMNS } from './scan-row.js';

/** The columns of `lookup`'s results, local or queued: the same rows either way. */
export const LOOKUP_COLUMNS: readonly Column[] = [
  { key: 'line', width: 6 },
  { key: 'decision', width: 8 },
  { key: 'verdict', width: 12 },
  { key: 'detail', width: 28 },
  { key: 'hash', width: 0 },
];

/**
 * CSV has room for every field. NDJSON and JSON give the fields of a row in
 * this order too (the table's columns first, then the rest, the exact name
 * beside the name), whichever of the two lists a writer is given.
 */
export const LOOKUP_CSV_COLUMNS: readonly Column[] = [
  ...LOOKUP_COLUMNS,
  { key: 'name', width: 0 },
  { key: 'nameBase64', width: 0 },
  { key: 'source', width: 0 },
  { key: 'error', width: 0 },
  ...TIME_COLUMNS,
];
