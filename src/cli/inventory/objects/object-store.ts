/**
 * The `objects` table of an inventory file: read back (every row checked),
 * and what a run settles written in batches, one transaction each. Its own
 * connection to the file `Inventory` opened and checked first (WAL: both
 * write in turn); rows are written once their result line is out, as files are.
 */
import type { HashAlgorithm } from '../../../index.js';
import type { DigestSource, ObjectIdentity } from '../../sources/entry.js';
import { s3Name } from '../../sources/s3/s3-url.js';
import { UsageError } from '../../usage-error.js';
import { BatchedWrites } from '../batched-writes.js';
import type { SqliteDatabase } from '../sqlite-driver.js';
import type { StoredAnswer } from '../store.js';
import { CREATE_OBJECTS, type ObjectRow, objectRow } from './object-schema.js';

/** One object as the inventory holds it. */
export interface ObjectRecord {
  /** As the store gave it when its digests were had (HeadObject). */
  readonly identity: ObjectIdentity;
  readonly digests: Readonly<Partial<Record<HashAlgorithm, string>>>;
  readonly digestSource: DigestSource;
  /** The digest that was looked up. */
  readonly algorithm: HashAlgorithm;
  readonly decision: 'allow' | 'block' | 'review';
  /** `undefined`: the last lookup gave no trustworthy answer (it is asked again). */
  readonly answer: StoredAnswer | undefined;
}

const UPSERT = `INSERT OR REPLACE INTO objects (bucket, key, version_id, etag, size, last_modified, sha256, sha1, md5,
  algorithm, digest_source, verdict, decision, source, checked_at, first_seen, last_seen)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

type Change = { readonly put: ObjectRecord } | { readonly remove: ObjectIdentity };

/** The objects of an inventory file, open for one run. */
export class ObjectInventory {
  readonly #db: SqliteDatabase;
  readonly #writes: BatchedWrites<Change>;

  private constructor(db: SqliteDatabase) {
    this.#db = db;
    const upsert = db.prepare(UPSERT);
    const remove = db.prepare('DELETE FROM objects WHERE bucket = ? AND key = ?');
    this.#writes = new BatchedWrites<Change>(db, (change) => {
      if ('remove' in change) remove.run(change.remove.bucket, change.remove.key);
      else upsert.run(...rowValues(change.put));
    });
  }

  /** Opens the objects of the inventory at `path` (already opened and checked as an inventory), creating the table. */
  static open(path: string, open: (path: string) => SqliteDatabase): ObjectInventory {
    const db = open(path);
    try {
      db.exec('PRAGMA busy_timeout = 5000');
      db.exec(CREATE_OBJECTS);
      return new ObjectInventory(db);
    } catch (error) {
      db.close();
      const message = error instanceof Error ? error.message : String(error);
      throw new UsageError(`--inventory ${path} cannot be used (${message}); name a new file to start an inventory`);
    }
  }

  /** Every row, checked (one that does not check refuses the file), keyed by `s3://bucket/key`. */
  load(path: string): Map<string, ObjectRecord> {
    const records = new Map<string, ObjectRecord>();
    for (const raw of this.#db.prepare('SELECT * FROM objects').all()) {
      const parsed = objectRow.safeParse(raw);
      if (!parsed.success) {
        const { bucket, key } = raw as { bucket?: unknown; key?: unknown };
        const where = typeof bucket === 'string' && typeof key === 'string' ? s3Name(bucket, key) : '?';
        const why = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'row'}: ${issue.message}`);
        throw new UsageError(
          `--inventory ${path} cannot be trusted (its row for ${where} does not check: ${why.join('; ')}); ` +
            'name a new file to start an inventory',
        );
      }
      const record = toRecord(parsed.data);
      records.set(s3Name(record.identity.bucket, record.identity.key), record);
    }
    return records;
  }

  /** Records an object's state; written with the next batch. */
  put(record: ObjectRecord): void {
    this.#writes.add({ put: record });
  }

  /** Forgets an object that is gone; written with the next batch. */
  remove(identity: ObjectIdentity): void {
    this.#writes.add({ remove: identity });
  }

  /** Writes what is pending and closes the connection. */
  close(): void {
    try {
      this.#writes.flush();
    } finally {
      this.#db.close();
    }
  }
}

function toRecord(row: ObjectRow): ObjectRecord {
  const digests: Partial<Record<HashAlgorithm, string>> = {};
  if (row.sha256 !== null) digests.sha256 = row.sha256;
  if (row.sha1 !== null) digests.sha1 = row.sha1;
  if (row.md5 !== null) digests.md5 = row.md5;
  return {
    identity: {
      bucket: row.bucket,
      key: row.key,
      versionId: row.version_id ?? undefined,
      etag: row.etag,
      size: row.size,
      lastModified: row.last_modified ?? undefined,
    },
    digests,
    digestSource: row.digest_source,
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

function rowValues(record: ObjectRecord): (string | number | null)[] {
  const { identity, digests, answer } = record;
  return [
    identity.bucket,
    identity.key,
    identity.versionId ?? null,
    identity.etag,
    identity.size,
    identity.lastModified ?? null,
    digests.sha256 ?? null,
    digests.sha1 ?? null,
    digests.md5 ?? null,
    record.algorithm,
    record.digestSource,
    answer?.verdict ?? 'error',
    record.decision,
    answer?.source ?? null,
    answer?.checkedAtMs ?? null,
    answer?.firstSeen ?? null,
    answer?.lastSeen ?? null,
  ];
}
