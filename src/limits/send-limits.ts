import { SmsError } from '../errors/sms-error.js';
import type { Observers } from '../observe/observers.js';
import { FLEET_BACKOFF_MS, type RedisLink } from '../redis/redis-link.js';
import { randomUUID } from '../util/crypto.js';
import { admitWithin, type LimitCall } from './limit-call.js';
import { limitedError, limitName, unavailableError } from './limit-errors.js';
import { type SendParties, wantsOf } from './limit-keys.js';
import type { LimitRule, ResolvedLimits, SmsLimitsOptions } from './limits-options.js';
import { resolveLimits } from './limits-options.js';
import { type LimitRefusal, type LocalCounts, refusalOf, type Want } from './local-counts.js';
import type { PendingWrites } from './pending-writes.js';
import { type CountScope, type ProcessLimits, processLimits } from './process-counts.js';
import { type CallBound, SharedCounts, settled, type TakeMode, type TakeReply } from './shared-counts.js';

/*
 * The accounting of the sending limits (docs/sms-limits.md). A refund is
 * credited to this replica's count only once Redis confirmed it, or when
 * the points surely never reached Redis. A take without a reply in time may
 * still run: its token makes a late run, a replay and a refund count once,
 * and its late reply still raises this replica's count. While Redis cannot
 * confirm a send, `'local'` lets at most one message per phone number
 * through on this replica's own count until Redis has recorded it. The
 * in-process count belongs to the process, not to one client: every client
 * of the same account counts into it (process-counts.ts), each against its
 * own limits.
 */

/**
 * Counters of the sending limits (`stats().limits`), cheap to read.
 *
 * @example
 * ```ts
 * const { refused, storeFailures } = sms.stats().limits ?? {}
 * ```
 */
export interface SmsLimitsStats {
  /** Sends the limits let through. */
  readonly allowed: number;
  /** Sends refused by a limit (`SEND_LIMITED`), none of them sent. */
  readonly refused: number;
  /** Checks whose shared count could not be read: Redis failed, was slow, or held a value out of range. */
  readonly storeFailures: number;
  /** Of `allowed`, sends let through on this replica's own count while Redis could not confirm them. */
  readonly allowedLocally: number;
  /** Sends refused because the shared count could not be read (`LIMITS_UNAVAILABLE`), none of them sent. */
  readonly refusedUnavailable: number;
  /** Sends and refunds this replica still has to write to Redis once it answers. */
  readonly pending: number;
  /**
   * Replies of the shared count out of range (a counter with no expiry or one
   * beyond its window, below zero, not a whole number, of another type):
   * never obeyed, each a Redis failure the limits step aside from.
   */
  readonly outOfRange: number;
}

/** Where the fleet's limits live in Redis. */
export interface LimitsStore {
  readonly link: RedisLink;
  readonly keyPrefix: string;
}

/** Points taken for one send, handed back if it was surely not sent. */
interface Admission {
  readonly wants: readonly Want[];
  readonly token: string;
  /** `counted`: Redis (or, without a fleet, this process) counted it; `local`: this replica alone, for now. */
  readonly via: 'counted' | 'local';
  /** Whether a take went to Redis without a reply: it may have run. */
  readonly maybeShared: boolean;
}

const UNAVAILABLE_REFUSAL = Symbol('limits unavailable');
type Admitted = Admission | LimitRefusal | typeof UNAVAILABLE_REFUSAL;

/** The sending limits of one `SmsClient`: in process, or shared through the fleet's Redis. */
export class SendLimits {
  readonly #rules: ResolvedLimits;
  readonly #local: LocalCounts;
  readonly #shared: SharedCounts | undefined;
  readonly #keyPrefix: string;
  readonly #observers: Observers;
  readonly #pending: PendingWrites;
  readonly #stats = { allowed: 0, refused: 0, storeFailures: 0, allowedLocally: 0, refusedUnavailable: 0 };

  /** `limits` (or the deprecated `fleet.limits`) as limits, or none. */
  static of(
    options: { readonly limits?: SmsLimitsOptions | undefined; readonly fleetLimits?: SmsLimitsOptions | undefined },
    store: LimitsStore | undefined,
    observers: Observers,
    scope: CountScope,
  ): SendLimits | undefined {
    const rules = resolveLimits(options.limits, options.fleetLimits);
    if (rules === undefined) return undefined;
    const keyPrefix = store === undefined ? 'limits' : `${store.keyPrefix}:limits`;
    return new SendLimits(rules, store, observers, keyPrefix, processLimits(scope, keyPrefix));
  }

  private constructor(
    rules: ResolvedLimits,
    store: LimitsStore | undefined,
    observers: Observers,
    keyPrefix: string,
    state: ProcessLimits,
  ) {
    this.#rules = rules;
    this.#local = state.local;
    this.#pending = state.pending;
    this.#observers = observers;
    // Their own link: a forged pause, quota or lock does not switch the limits off, nor a forged counter those.
    this.#shared = store === undefined ? undefined : new SharedCounts(store.link.sibling('limits'), keyPrefix);
    this.#keyPrefix = keyPrefix;
  }

  /** For `toJSON()`. */
  get settings(): Record<string, unknown> {
    const rules = [...this.#rules.perRecipient, ...(this.#rules.budget === undefined ? [] : [this.#rules.budget])];
    const byLimit = (list: readonly LimitRule[]) => Object.fromEntries(list.map((rule) => [rule.limit, rule.max]));
    return {
      ...byLimit(rules),
      ...(this.#rules.perCaller.length > 0 && { perCaller: byLimit(this.#rules.perCaller) }),
      countedIn: this.#shared === undefined ? 'process' : 'fleet',
      ...(this.#shared !== undefined && { onStoreFailure: this.#rules.onStoreFailure }),
    };
  }

  stats(): SmsLimitsStats {
    return { ...this.#stats, pending: this.#pending.size, outOfRange: this.#shared?.outOfRange ?? 0 };
  }

  /**
   * Runs `send` if the limits admit one message to each of the recipients
   * (canonical numbers), from the caller when given; a refusal rejects with `SEND_LIMITED`
   * (or `LIMITS_UNAVAILABLE`) and sends nothing. A send that surely went
   * nowhere (`not_sent`, `rejected`) gives its share back. The check runs
   * within `call`'s budget and signal (see {@link admitWithin}).
   */
  async guard<T>(parties: SendParties, send: () => Promise<T>, call?: LimitCall): Promise<T> {
    const admission = await admitWithin(call, this.#admit.bind(this, parties), (admitted) => {
      if (admitted !== UNAVAILABLE_REFUSAL && !('limit' in admitted)) this.#refund(admitted);
    });
    if (admission === UNAVAILABLE_REFUSAL) {
      this.#stats.refusedUnavailable += 1;
      this.#emitLimited('unavailable', FLEET_BACKOFF_MS);
      throw unavailableError(this.#rules.option);
    }
    if ('limit' in admission) {
      this.#stats.refused += 1;
      // The names of earlier versions for the per-number limits and the budget; `perCaller.…` for the caller's.
      this.#emitLimited(
        admission.scope === 'perCaller' ? limitName(admission) : admission.limit,
        admission.retryAfterMs,
      );
      throw limitedError(this.#rules.option, admission);
    }
    this.#stats.allowed += 1;
    if (admission.via === 'local' && this.#shared !== undefined) this.#stats.allowedLocally += 1;
    try {
      return await send();
    } catch (error) {
      if (error instanceof SmsError && error.outcome !== 'unknown') this.#refund(admission);
      throw error;
    }
  }

  async #admit(parties: SendParties, bound?: CallBound): Promise<Admitted> {
    const wants = wantsOf(this.#rules, this.#keyPrefix, parties);
    const token = randomUUID();
    const shared = this.#shared;
    if (shared === undefined) {
      return this.#local.take(wants) ?? { wants, token, via: 'counted', maybeShared: false };
    }
    this.#replay();
    const attempt = await shared.take(wants, token, 'take', bound);
    if (attempt.state === 'answered' && attempt.value.kind !== 'invalid') {
      const reply = attempt.value;
      this.#mirror(wants, reply);
      if (reply.kind === 'refused') return refusalOf(wants, reply.counts, reply.ttls) ?? UNAVAILABLE_REFUSAL;
      return { wants, token, via: 'counted', maybeShared: true };
    }
    this.#stats.storeFailures += 1;
    // A take that got no reply in time may still run; its late reply still tells this replica the count.
    if (attempt.state === 'in-doubt') this.#onLate(attempt.late, wants, token);
    // An answer out of range came from a script that wrote nothing.
    const maybeShared = attempt.state === 'in-doubt';
    if (this.#rules.onStoreFailure === 'refuse') {
      if (maybeShared) this.#pending.keep(token, { kind: 'refund', wants, creditLocal: false, running: false });
      return UNAVAILABLE_REFUSAL;
    }
    // At most one message per phone number that Redis has not recorded, on this replica's own count.
    if (this.#pending.unrecorded(wants)) {
      if (maybeShared) this.#pending.keep(token, { kind: 'refund', wants, creditLocal: false, running: false });
      return UNAVAILABLE_REFUSAL;
    }
    // A send Redis has not recorded is never forgotten: with no room to keep one more, none goes.
    const refusal = this.#pending.makeRoom() ? this.#local.take(wants) : UNAVAILABLE_REFUSAL;
    if (refusal !== undefined) {
      if (maybeShared) this.#pending.keep(token, { kind: 'refund', wants, creditLocal: false, running: false });
      return refusal;
    }
    this.#pending.keep(token, { kind: 'record', wants, creditLocal: false, running: false });
    return { wants, token, via: 'local', maybeShared };
  }

  /** A send that surely went nowhere gives back what it took, never what it did not take. */
  #refund(admission: Admission): void {
    const { wants, token } = admission;
    if (this.#shared === undefined) {
      this.#local.giveBack(wants);
      return;
    }
    if (admission.via === 'local') {
      // Never write to Redis a send that did not happen.
      this.#pending.drop(token);
      if (!admission.maybeShared) {
        this.#local.giveBack(wants);
        return;
      }
    }
    this.#pending.keep(token, { kind: 'refund', wants, creditLocal: true, running: false });
    this.#replay();
  }

  /** What Redis said the counters hold raises this replica's count. */
  #mirror(wants: readonly Want[], reply: TakeReply): void {
    if (reply.kind === 'invalid') return;
    wants.forEach((want, index) => {
      this.#local.raise(want.key, reply.counts[index] ?? 0, reply.ttls[index] ?? 0);
    });
  }

  #onLate(late: Promise<TakeReply>, wants: readonly Want[], token: string): void {
    late.then(
      (reply) => {
        this.#mirror(wants, reply);
        // Taken by that late run: Redis has recorded the send (a refund by token still finds it).
        if (reply.kind === 'taken' && this.#pending.get(token)?.kind === 'record') this.#pending.drop(token);
      },
      () => {},
    );
  }

  /** Writes what Redis has not recorded yet (sends made on this replica's count, refunds), never waiting. */
  #replay(): void {
    const shared = this.#shared;
    if (shared === undefined || this.#pending.size === 0 || shared.down) return;
    for (const [token, op] of this.#pending.entries()) {
      if (op.running) continue;
      op.running = true;
      const settle = (done: boolean): void => {
        op.running = false;
        if (done && this.#pending.get(token) === op) this.#pending.drop(token);
      };
      if (op.kind === 'record') {
        void settled(shared.take(op.wants, token, 'record' satisfies TakeMode)).then((reply) => {
          if (reply !== undefined) this.#mirror(op.wants, reply);
          settle(reply !== undefined && reply.kind !== 'invalid');
        });
      } else {
        void settled(shared.giveBack(op.wants, token)).then((reply) => {
          if (reply !== undefined && op.creditLocal && this.#pending.get(token) === op) this.#local.giveBack(op.wants);
          settle(reply !== undefined);
        });
      }
    }
  }

  #emitLimited(limit: string, retryAfterMs: number): void {
    if (this.#observers.listens('fleet:limited')) {
      this.#observers.emit({ type: 'fleet:limited', client: 'sms', limit, retryAfterMs });
    }
  }
}
