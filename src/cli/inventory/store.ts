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
import { CREATE, type FileRow, FORMAT, fileRow, SCHEMA_VERSION } from './schema.js';
import type { SqliteDatabase, SqliteDriverName, SqliteStatement } from './sqlite-driver.js';

/** Rows per transaction, at most; fewer are written when the run pauses. */
const BATCH_ROWS = 2048;
/** Settled rows wait at most this long for their transaction. */
const BATCH_MS = 200;

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

const UPSERT = `INSERT OR REPLACE INTO files (path, size, mtime_ms, ino, dev, sha256, sha1, md5, algorithm,
  verdict, decision, source, checked_at, first_seen, last_seen) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** An inventory file, open for one run. */
export class Inventory {
  readonly #db: SqliteDatabase;
  readonly #upsert: SqliteStatement;
  readonly #remove: SqliteStatement;
  #pending: (InventoryEntry | Buffer)[] = [];
  #timer: NodeJS.Timeout | undefined;

  private constructor(db: SqliteDatabase) {
    this.#db = db;
    this.#upsert = db.prepare(UPSERT);
    this.#remove = db.prepare('DELETE FROM files WHERE path = ?');
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

  /** Every row, checked; one that does not check refuses the file. Keyed by the path's bytes (latin1). */
  load(path: string): Map<string, InventoryEntry> {
    const entries = new Map<string, InventoryEntry>();
    for (const raw of this.#db.prepare('SELECT * FROM files').all()) {
      const parsed = fileRow.safeParse(raw);
      if (!parsed.success) {
        const name = (raw as { path?: unknown }).path;
        const where = name instanceof Uint8Array ? shownName(Buffer.from(name)) : '?';
        const why = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'row'}: ${issue.message}`);
        throw new UsageError(
          `--inventory ${path} cannot be trusted (its row for ${where} does not check: ${why.join('; ')}); ` +
            'name a new file to start an inventory',
        );
      }
      const entry = toEntry(parsed.data);
      entries.set(entry.path.toString('latin1'), entry);
    }
    return entries;
  }

  /** Records a file's state; written with the next batch. */
  put(entry: InventoryEntry): void {
    this.#queue(entry);
  }

  /** Forgets a file that is gone; written with the next batch. */
  remove(path: Buffer): void {
    this.#queue(path);
  }

  #queue(change: InventoryEntry | Buffer): void {
    this.#pending.push(change);
    if (this.#pending.length >= BATCH_ROWS) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  /** Writes what is pending, in one transaction. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.length === 0) return;
    const batch = this.#pending;
    this.#pending = [];
    this.#db.exec('BEGIN');
    try {
      for (const change of batch) {
        if (Buffer.isBuffer(change)) this.#remove.run(change);
        else this.#upsert.run(...rowValues(change));
      }
      this.#db.exec('COMMIT');
    } catch (error) {
      this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  /** Writes what is pending and closes the file. */
  close(): void {
    try {
      this.flush();
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

function toEntry(row: FileRow): InventoryEntry {
  const digests: Partial<Record<HashAlgorithm, string>> = {};
  if (row.sha256 !== null) digests.sha256 = row.sha256;
  if (row.sha1 !== null) digests.sha1 = row.sha1;
  if (row.md5 !== null) digests.md5 = row.md5;
  return {
    path: Buffer.from(row.path),
    identity: { size: row.size, mtimeMs: row.mtime_ms, ino: row.ino, dev: row.dev },
    digests,
    algorithm: row.algorithm,
    decision: row.decision,
    answer:
      row.verdict === 'error' || row.checked_at === null
        ? undefined
        : {
            verdict: row.verdict,
            source: row.source ?? undefined,
            firstSeen: row.first_seen ?? undefined,
            lastSeen: row.last_seen ?? undefined,
            checkedAtMs: row.checked_at,
          },
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
