// A floor for the re-check (issue 34): a bare Node process that only reads the inventory's rows
// back, every column as the CLI selects it (the path as hex), as arrays, through the driver the CLI
// takes on this runtime (node:sqlite where it is unflagged, else better-sqlite3), checking nothing.
// Usage: node bench/inventory/floor-rows.mjs INVENTORY
import { createRequire } from 'node:module';

const SELECT = `SELECT CASE WHEN typeof(path) = 'blob' THEN lower(hex(path)) END AS path, size, mtime_ms, ino, dev,
  sha256, sha1, md5, algorithm, verdict, decision, source, checked_at, first_seen, last_seen FROM files`;
let rows;
const sqlite = await import('node:sqlite').catch(() => undefined);
if (sqlite?.DatabaseSync !== undefined) {
  const statement = new sqlite.DatabaseSync(process.argv[2], { readOnly: true }).prepare(SELECT);
  statement.setReturnArrays?.(true);
  rows = statement.all();
} else {
  const Database = createRequire(import.meta.url)('better-sqlite3');
  rows = new Database(process.argv[2], { readonly: true }).prepare(SELECT).raw(true).all();
}
if (rows.length === 0) throw new Error('no row read');
