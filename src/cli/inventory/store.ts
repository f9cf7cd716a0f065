/**
 * The inventory file: opened (or created), its rows read back and checked,
 * and what a run settles written back in batches, one transaction each, in
 * WAL mode. Rows are written only once their result line is with the
 * operating system (the resume journal's rule): a run stopped at any point
 * loses no transition, and what it had printed is not asked again.
 */
import type { HashAlgorithm } from '../../index.js';
import { shownName } from '../names.js';
import { UsageError } from '../usage-error.js';
import { BatchedWrites } from './batched-writes.js';
import { COL, COLUMNS, CREATE, checkRow, type FileRow, FORMAT, SCHEMA_VERSION } from './schema.js';
import type { SqliteDatabase, SqliteDriverName } from './sqlite-driver.js';

/** What says a file is the one recorded: size, modification time and inode on its device. */
export interface FileIdentity {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
  readonly dev: number;
}

/** A trustworthy answer, with when it was obtained. */
export interface StoredAnswer {
  readonly verdict: 'malicious' | 'not_detected';
  readonly source: string | undefined;
  readonly firstSeen: string | undefined;
  readonly lastSeen: string | undefined;
  /** ms since the epoch. */
  readonly checkedAtMs: number;
}

/** One file as the inventory holds it. */
export interface InventoryEntry {
  readonly path: Buffer;
  readonly identity: FileIdentity;
  readonly digests: Readonly<Partial<Record<HashAlgorithm, string>>>;
  /** The digest that was looked up. */
  readonly algorithm: HashAlgorithm;
  /** The decision last reported for the file. */
  readonly decision: 'allow' | 'block' | 'review';
  /** `undefined`: the last lookup gave no trustworthy answer (it is asked again). */
  readonly answer: StoredAnswer | undefined;
}

/** Every row, its columns in a {@link FileRow}'s order; the path in lowercase hex (`null` if it is not a BLOB). */
const SELECT = `SELECT ${COLUMNS.map((name) =>
  name === 'path' ? "CASE WHEN typeof(path) = 'blob' THEN lower(hex(path)) END AS path" : name,
).join(', ')} FROM files`;

const UPSERT = `INSERT OR REPLACE INTO files (path, size, mtime_ms, ino, dev, sha256, sha1, md5, algorithm,
  verdict, decision, source, checked_at, first_seen, last_seen) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** An inventory file, open for one run. */
export class Inventory {
  readonly #db: SqliteDatabase;
  /** A file's new state, or the path of a file that is gone. */
  readonly #writes: BatchedWrites<InventoryEntry | Buffer>;

  private constructor(db: SqliteDatabase) {
    this.#db = db;
    const upsert = db.prepare(UPSERT);
    const remove = db.prepare('DELETE FROM files WHERE path = ?');
    this.#writes = new BatchedWrites(db, (change) => {
      if (Buffer.isBuffer(change)) remove.run(change);
      else upsert.run(...rowValues(change));
    });
  }

  /** Opens `path` (created when absent); anything but an inventory of this schema is a usage error. */
  static open(path: string, open: (path: string) => SqliteDatabase, driver: SqliteDriverName): Inventory {
    const refuse = (why: string): UsageError =>
      new UsageError(`--inventory ${path} cannot be used (${why}); name a new file to start an inventory`);
    let db: SqliteDatabase | undefined;
    try {
      db = open(path);
      db.exec('PRAGMA busy_timeout = 5000');
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
      if (tables.length === 0) db.exec(`BEGIN; ${CREATE} COMMIT;`);
      else checkMeta(db, refuse);
      db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL');
      return new Inventory(db);
    } catch (error) {
      db?.close();
      if (error instanceof UsageError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw refuse(`${driver}: ${message}`);
    }
  }

  /**
   * Every row, checked, as it is stored (one array per file, no object per
   * field); one that does not check refuses the file. Keyed by the path's
   * bytes in hex, as the row holds them (a string is cheaper to read back than
   * a Buffer per row); {@link entryOf} gives a row as an {@link InventoryEntry}.
   */
  load(path: string): Map<string, FileRow> {
    const rows = new Map<string, FileRow>();
    const select = this.#db.prepare(SELECT);
    // Arrays, not an object per row, where the driver can: better-sqlite3's raw(), node:sqlite's setReturnArrays().
    if (typeof select.raw === 'function') select.raw(true);
    else if (typeof select.setReturnArrays === 'function') select.setReturnArrays(true);
    for (const raw of select.all()) {
      const row = checkRow(raw);
      if (typeof row === 'string') {
        const name = Array.isArray(raw) ? raw[COL.path] : (raw as { path?: unknown }).path;
        const where = typeof name === 'string' ? shownName(Buffer.from(name, 'hex')) : '?';
        throw new UsageError(
          `--inventory ${path} cannot be trusted (its row for ${where} does not check: ${row}); ` +
            'name a new file to start an inventory',
        );
      }
      rows.set(row[COL.path], row);
    }
    return rows;
  }

  /** Records a file's state; written with the next batch. */
  put(entry: InventoryEntry): void {
    this.#writes.add(entry);
  }

  /** Forgets a file that is gone; written with the next batch. */
  remove(path: Buffer): void {
    this.#writes.add(path);
  }

  /** Writes what is pending and closes the file. */
  close(): void {
    try {
      this.#writes.flush();
    } finally {
      this.#db.close();
    }
  }
}

function checkMeta(db: SqliteDatabase, refuse: (why: string) => UsageError): void {
  let rows: unknown[];
  try {
    rows = db.prepare('SELECT key, value FROM meta').all();
  } catch {
    throw refuse('an SQLite file that is not an inventory');
  }
  const meta = new Map(
    rows.map((row) => [String((row as Record<string, unknown>).key), (row as Record<string, unknown>).value]),
  );
  if (meta.get('format') !== FORMAT) throw refuse('an SQLite file that is not an inventory');
  if (meta.get('schema') !== String(SCHEMA_VERSION)) {
    throw refuse(`schema ${String(meta.get('schema'))}, this version reads ${SCHEMA_VERSION}`);
  }
}

/** A stored row as an {@link InventoryEntry}. */
export function entryOf(row: FileRow): InventoryEntry {
  const [path, size, mtimeMs, ino, dev, sha256, sha1, md5, algorithm, , decision] = row;
  const digests: Partial<Record<HashAlgorithm, string>> = {};
  if (sha256 !== null) digests.sha256 = sha256;
  if (sha1 !== null) digests.sha1 = sha1;
  if (md5 !== null) digests.md5 = md5;
  return {
    path: Buffer.from(path, 'hex'),
    identity: { size, mtimeMs, ino, dev },
    digests,
    algorithm,
    decision,
    answer: answerOf(row),
  };
}

/** A stored row's answer; `undefined` for an error (asked again). */
export function answerOf(row: FileRow): StoredAnswer | undefined {
  const checkedAtMs = row[COL.checked_at];
  const verdict = row[COL.verdict];
  if (verdict === 'error' || checkedAtMs === null) return undefined;
  return {
    verdict,
    source: row[COL.source] ?? undefined,
    firstSeen: row[COL.first_seen] ?? undefined,
    lastSeen: row[COL.last_seen] ?? undefined,
    checkedAtMs,
  };
}

function rowValues(entry: InventoryEntry): (string | number | null | Uint8Array)[] {
  const { identity, digests, answer } = entry;
  return [
    entry.path,
    identity.size,
    identity.mtimeMs,
    identity.ino,
    identity.dev,
    digests.sha256 ?? null,
    digests.sha1 ?? null,
    digests.md5 ?? null,
    entry.algorithm,
    answer?.verdict ?? 'error',
    entry.decision,
    answer?.source ?? null,
    answer?.checkedAtMs ?? null,
    answer?.firstSeen ?? null,
    answer?.lastSeen ?? null,
  ];
}
