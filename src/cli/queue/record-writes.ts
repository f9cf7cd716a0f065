import type { Redis } from 'ioredis';

/** Records are sent once this many are pending, or this long after the first of them. */
const BATCH_RECORDS = 128;
const BATCH_MS = 20;

/**
 * `HSETNX` of each field and value pair (ARGV from 2 on) of the hash KEYS[1],
 * then its expiry when ARGV[1] is not 0: a batch of records in one command.
 */
const RECORD_SCRIPT =
  "for i = 2, #ARGV, 2 do redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1]) end if ARGV[1] ~= '0' then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return 1";

/**
 * A worker's writes of sealed line records (`HSETNX`: recorded once, so a
 * worker taking a chunk over never replaces a record), sent to Redis in
 * batches of up to {@link BATCH_RECORDS} records, at most {@link BATCH_MS} ms
 * after the first: one script (one command, one socket write) for many lines.
 * A worker killed in between loses those records: their lines are asked
 * again (mostly answered from the shared cache).
 */
export class RecordWrites {
  readonly #redis: Redis;
  readonly #key: string;
  /** Field, value, field, value… of the records not sent yet. */
  #batch: string[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #sent: Array<Promise<unknown>> = [];

  constructor(redis: Redis, key: string) {
    this.#redis = redis;
    this.#key = key;
  }

  /** Records `value` under `field` unless a record is there. */
  add(field: string, value: string): void {
    if (this.#batch.length === 0) this.#timer = setTimeout(() => this.#send(0), BATCH_MS);
    this.#batch.push(field, value);
    if (this.#batch.length >= BATCH_RECORDS * 2) this.#send(0);
  }

  /** Sends what is pending with the key's expiry in `ttlMs`, and waits for every write; throws the first that failed. */
  async done(ttlMs: number): Promise<void> {
    this.#send(ttlMs);
    await Promise.all(this.#sent);
  }

  #send(ttlMs: number): void {
    clearTimeout(this.#timer);
    const batch = this.#batch;
    if (batch.length === 0 && ttlMs === 0) return;
    this.#batch = [];
    const sent = this.#redis.eval(RECORD_SCRIPT, 1, this.#key, String(ttlMs), ...batch);
    // Handled here so that a failure before `done()` is no unhandled rejection; `done()` still throws it.
    sent.catch(() => {});
    this.#sent.push(sent);
  }
}
