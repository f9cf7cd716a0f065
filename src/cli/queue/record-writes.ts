import type { Redis } from 'ioredis';

/** Records are sent once this many are pending, or this long after the first of them. */
const BATCH_RECORDS = 128;
const BATCH_MS = 20;

/**
 * A worker's writes of sealed line records (`HSETNX`: recorded once, so a
 * worker taking a chunk over never replaces a record), sent to Redis in
 * pipelines of up to {@link BATCH_RECORDS} records, at most
 * {@link BATCH_MS} ms after the first: one socket write (and one pipeline
 * object) for many lines. A worker killed in between loses those records:
 * their lines are asked again (mostly answered from the shared cache).
 */
export class RecordWrites {
  readonly #redis: Redis;
  readonly #key: string;
  #batch: ReturnType<Redis['pipeline']> | undefined;
  #pending = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #sent: Array<Promise<unknown>> = [];

  constructor(redis: Redis, key: string) {
    this.#redis = redis;
    this.#key = key;
  }

  /** Records `value` under `field` unless a record is there. */
  add(field: string, value: string): void {
    if (this.#batch === undefined) {
      this.#batch = this.#redis.pipeline();
      this.#timer = setTimeout(() => this.#send(), BATCH_MS);
    }
    this.#batch.hsetnx(this.#key, field, value);
    this.#pending += 1;
    if (this.#pending >= BATCH_RECORDS) this.#send();
  }

  /** Sends what is pending with `PEXPIRE key ttlMs`, and waits for every write; throws the first that failed. */
  async done(ttlMs: number): Promise<void> {
    this.#batch ??= this.#redis.pipeline();
    this.#batch.pexpire(this.#key, ttlMs);
    this.#send();
    await Promise.all(this.#sent);
  }

  #send(): void {
    const batch = this.#batch;
    if (batch === undefined) return;
    clearTimeout(this.#timer);
    this.#batch = undefined;
    this.#pending = 0;
    const sent = batch.exec().then((results) => {
      const failed = results?.find(([error]) => error !== null)?.[0];
      if (failed) throw failed;
    });
    // Handled here so that a failure before `done()` is no unhandled rejection; `done()` still throws it.
    sent.catch(() => {});
    this.#sent.push(sent);
  }
}
