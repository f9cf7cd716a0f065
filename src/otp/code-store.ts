/*
 * Where a verifier keeps its codes: only their hashes, each with the record's
 * random id, when it was sent and when it expires. Every operation a check
 * depends on is one step of the store (atomic in memory, one script in
 * Redis): a resend within the cool-down is refused by the same step that
 * would replace the code, and an attempt is counted by the step that reads it.
 */

/** One code as stored: never the code itself. */
export interface StoredCode {
  /** Random per record: salts the hash, and names the record for its single use. */
  readonly id: string;
  /** HMAC-SHA256 of the id, the phone and the code (hex). */
  readonly hash: string;
  /** When it was sent, in epoch ms. */
  readonly sentAt: number;
  /** When it stops being valid, in epoch ms. */
  readonly expiresAt: number;
}

/** What starting a new code did. */
export type StartReply =
  | { readonly kind: 'started' }
  | { readonly kind: 'cooling'; readonly retryAfterMs: number }
  | { readonly kind: 'unavailable' };

/** One attempt, counted: the record after the count, none, or no answer. */
export type AttemptReply =
  | { readonly kind: 'none' }
  | { readonly kind: 'counted'; readonly code: StoredCode; readonly attempts: number }
  | { readonly kind: 'unavailable' };

/** What removing a record by its id did: `removed` by this call, already `gone`, or no answer. */
export type RemoveReply = 'removed' | 'gone' | 'unavailable';

/** The verifier's storage: in memory, or in the fleet's Redis. */
export interface CodeStore {
  /** Stores `code` for `key`, unless the code there was sent less than the cool-down ago. */
  start(key: string, code: StoredCode, now: number): Promise<StartReply>;
  /** Counts one check of the code stored for `key` and reads it. */
  attempt(key: string, now: number): Promise<AttemptReply>;
  /** Removes the record of `key` if it is still the record `id` (single use; a send that did not go). */
  remove(key: string, id: string): Promise<RemoveReply>;
}

/** The rules both stores keep. */
export interface StoreRules {
  /** A resend is refused for this long after a send, in ms. */
  readonly cooldownMs: number;
  /** How long a record is kept after it was sent: its validity, then as long again to say `expired`. */
  readonly keepMs: number;
}

interface Entry extends StoredCode {
  attempts: number;
  readonly dropAt: number;
}

/**
 * Codes in this process: a map in insertion order, so the oldest record is
 * the first, swept once it is past `keepMs`, and dropped first past `maxEntries`.
 */
export class MemoryCodeStore implements CodeStore {
  readonly #entries = new Map<string, Entry>();
  readonly #rules: StoreRules;
  readonly #maxEntries: number;

  constructor(rules: StoreRules, maxEntries: number) {
    this.#rules = rules;
    this.#maxEntries = maxEntries;
  }

  /** Records held now (expired ones not yet swept included). */
  get size(): number {
    return this.#entries.size;
  }

  async start(key: string, code: StoredCode, now: number): Promise<StartReply> {
    this.#sweep(now);
    const current = this.#live(key, now);
    const since = current === undefined ? Number.POSITIVE_INFINITY : now - current.sentAt;
    if (since >= 0 && since < this.#rules.cooldownMs) {
      return { kind: 'cooling', retryAfterMs: this.#rules.cooldownMs - since };
    }
    this.#entries.delete(key);
    this.#entries.set(key, { ...code, attempts: 0, dropAt: now + this.#rules.keepMs });
    if (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    return { kind: 'started' };
  }

  async attempt(key: string, now: number): Promise<AttemptReply> {
    const entry = this.#live(key, now);
    if (entry === undefined) return { kind: 'none' };
    entry.attempts += 1;
    const { id, hash, sentAt, expiresAt } = entry;
    return { kind: 'counted', code: { id, hash, sentAt, expiresAt }, attempts: entry.attempts };
  }

  async remove(key: string, id: string): Promise<RemoveReply> {
    if (this.#entries.get(key)?.id !== id) return 'gone';
    this.#entries.delete(key);
    return 'removed';
  }

  #live(key: string, now: number): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined || entry.dropAt > now) return entry;
    this.#entries.delete(key);
    return undefined;
  }

  /** Drops records past their time from the oldest on; stops at the first live one. */
  #sweep(now: number): void {
    for (const [key, entry] of this.#entries) {
      if (entry.dropAt > now) return;
      this.#entries.delete(key);
    }
  }
}
