import type { Want } from './local-counts.js';

/*
 * What one replica still has to write to the fleet's Redis: sends it let
 * through on its own count (`record`) and refunds. A send Redis has not
 * recorded is never forgotten: it marks its phone numbers' counters as
 * unrecorded until Redis holds it, and when no room is left the oldest
 * refund goes, never a send (the limits then refuse new sends instead).
 */

/** One write kept for Redis. */
export interface PendingOp {
  readonly kind: 'record' | 'refund';
  readonly wants: readonly Want[];
  /** A refund lowers this replica's count once Redis confirmed it. */
  readonly creditLocal: boolean;
  running: boolean;
}

/** Writes kept for Redis at most. */
const MAX_PENDING = 1_000;

/** The writes a replica keeps for Redis, by the token of their send. */
export class PendingWrites {
  readonly #ops = new Map<string, PendingOp>();
  /** Phone-number counters with a send this replica let through that Redis has not recorded yet. */
  readonly #unrecorded = new Map<string, number>();

  get size(): number {
    return this.#ops.size;
  }

  get(token: string): PendingOp | undefined {
    return this.#ops.get(token);
  }

  entries(): IterableIterator<[string, PendingOp]> {
    return this.#ops.entries();
  }

  /** Whether a send to one of these counters was let through and Redis has not recorded it yet. */
  unrecorded(wants: readonly Want[]): boolean {
    return wants.some((want) => want.rule.scope === 'perRecipient' && this.#unrecorded.has(want.key));
  }

  /** Whether one more write fits, once the oldest refund (never a send) made room for it. */
  makeRoom(): boolean {
    if (this.#ops.size < MAX_PENDING) return true;
    for (const [token, op] of this.#ops) {
      if (op.kind === 'refund') {
        // Points left in Redis only refuse sends until their window ends.
        this.drop(token);
        return true;
      }
    }
    return false;
  }

  /** Keeps `op` in place of the token's; full of sends Redis has not recorded, a refund is the one left out. */
  keep(token: string, op: PendingOp): void {
    this.drop(token);
    if (!this.makeRoom()) return;
    this.#ops.set(token, op);
    if (op.kind === 'record') this.#count(op.wants, 1);
  }

  drop(token: string): void {
    const op = this.#ops.get(token);
    if (op === undefined) return;
    this.#ops.delete(token);
    if (op.kind === 'record') this.#count(op.wants, -1);
  }

  #count(wants: readonly Want[], delta: number): void {
    for (const want of wants) {
      if (want.rule.scope !== 'perRecipient') continue;
      const next = (this.#unrecorded.get(want.key) ?? 0) + delta;
      if (next <= 0) this.#unrecorded.delete(want.key);
      else this.#unrecorded.set(want.key, next);
    }
  }
}
