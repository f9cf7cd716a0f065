/**
 * Changes to an inventory table written in batches, one transaction each:
 * at most {@link BATCH_ROWS} a transaction, and none waiting longer than
 * {@link BATCH_MS}. `apply` runs one change inside the transaction.
 */
import type { SqliteDatabase } from './sqlite-driver.js';

/** Rows per transaction, at most; fewer are written when the run pauses. */
const BATCH_ROWS = 2048;
/** Settled rows wait at most this long for their transaction. */
const BATCH_MS = 200;

export class BatchedWrites<T> {
  readonly #db: SqliteDatabase;
  readonly #apply: (change: T) => void;
  #pending: T[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(db: SqliteDatabase, apply: (change: T) => void) {
    this.#db = db;
    this.#apply = apply;
  }

  /** Queues a change; written with the next batch. */
  add(change: T): void {
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
      for (const change of batch) this.#apply(change);
      this.#db.exec('COMMIT');
    } catch (error) {
      this.#db.exec('ROLLBACK');
      throw error;
    }
  }
}
