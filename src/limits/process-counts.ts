import { createDigest, toBase64Url } from '../util/crypto.js';
import { LocalCounts } from './local-counts.js';
import { PendingWrites } from './pending-writes.js';

/*
 * The in-process side of the limits, one per account (and fleet prefix) for
 * the whole process: every `SmsClient` with the same access key id counts
 * into it, whatever order they were built in, so a client built per request
 * (or again after a dev-server reload) finds the counts the others took and
 * cannot reset them; and, with `fleet`, the sends not yet written to Redis
 * are the process's too, so "one extra message per number and replica"
 * holds however many clients the replica builds. Kept on `globalThis` under
 * a registered symbol, so a module evaluated again (hot reload, a second
 * copy of the package) still finds them.
 */

/** Who a client counts for: its access key id, or the provider function its keys come from. */
export type CountScope = string | object;

/** The counts of one account in this process, and the writes it still owes Redis. */
export interface ProcessLimits {
  readonly local: LocalCounts;
  readonly pending: PendingWrites;
}

interface Registry {
  /** By a hash of the access key id (the id itself is never a key here), then by key prefix. */
  readonly byKeyId: Map<string, ProcessLimits>;
  /** By provider function (its keys are known only once it answers, after the limits were checked). */
  readonly byProvider: WeakMap<object, Map<string, ProcessLimits>>;
}

const SLOT = Symbol.for('hashscan-sms.limits.process-counts.v1');

/** What sits in the slot, if it is a registry this version can use; anything else is replaced, never trusted. */
function registry(): Registry {
  const holder = globalThis as { [SLOT]?: unknown };
  const found = holder[SLOT];
  if (
    typeof found === 'object' &&
    found !== null &&
    (found as Partial<Registry>).byKeyId instanceof Map &&
    (found as Partial<Registry>).byProvider instanceof WeakMap
  ) {
    return found as Registry;
  }
  const fresh: Registry = { byKeyId: new Map(), byProvider: new WeakMap() };
  Object.defineProperty(holder, SLOT, { value: fresh, configurable: true, enumerable: false, writable: false });
  return fresh;
}

const hasMethods = (value: unknown, names: readonly string[]): boolean =>
  typeof value === 'object' &&
  value !== null &&
  names.every((name) => typeof (value as Record<string, unknown>)[name] === 'function');

/** Whether a value found in the registry can count (made by this or another copy of the package). */
function usable(value: unknown): value is ProcessLimits {
  if (typeof value !== 'object' || value === null) return false;
  const { local, pending } = value as Partial<Record<keyof ProcessLimits, unknown>>;
  return (
    hasMethods(local, ['take', 'raise', 'giveBack']) &&
    hasMethods(pending, ['get', 'entries', 'unrecorded', 'makeRoom', 'keep', 'drop'])
  );
}

/** `map`'s entry for `key`, made when missing or unusable. */
function entry(map: Map<string, ProcessLimits>, key: string): ProcessLimits {
  const found = map.get(key);
  if (usable(found)) return found;
  const made: ProcessLimits = { local: new LocalCounts(), pending: new PendingWrites() };
  map.set(key, made);
  return made;
}

/** The process's limits state for `scope` under `keyPrefix` (the fleet's, or the in-process one), made on first use. */
export function processLimits(scope: CountScope, keyPrefix: string): ProcessLimits {
  const { byKeyId, byProvider } = registry();
  if (typeof scope === 'string') {
    const id = toBase64Url(createDigest('sha256').update(`sms-access-key-id:${scope}`).bytes());
    return entry(byKeyId, `${id}\n${keyPrefix}`);
  }
  let byPrefix = byProvider.get(scope);
  if (!(byPrefix instanceof Map)) {
    byPrefix = new Map();
    byProvider.set(scope, byPrefix);
  }
  return entry(byPrefix, keyPrefix);
}
