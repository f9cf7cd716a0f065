import { createDigest, toBase64Url } from '../../util/crypto.js';
import { LocalCounts } from './local-counts.js';

/*
 * The in-process counts, one set per account for the whole process: every
 * `SmsClient` with the same access key id counts into it, whatever order
 * they were built in, so a client built per request (or again after a
 * dev-server reload) finds the counts the others took and cannot reset them.
 * Kept on `globalThis` under a registered symbol, so a module evaluated
 * again (hot reload, a second copy of the package) still finds them.
 */

/** Who a client counts for: its access key id, or the provider function its keys come from. */
export type CountScope = string | object;

interface Registry {
  /** By a hash of the access key id (the id itself is never a key here). */
  readonly byKeyId: Map<string, LocalCounts>;
  /** By provider function: its keys are known only once it answers, after the limits were checked. */
  readonly byProvider: WeakMap<object, LocalCounts>;
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

/** Whether a value found in the registry can count: a counts object of this or another copy of the package. */
function usable(value: unknown): value is LocalCounts {
  if (typeof value !== 'object' || value === null) return false;
  const counts = value as Partial<Record<keyof LocalCounts, unknown>>;
  return (
    typeof counts.take === 'function' && typeof counts.raise === 'function' && typeof counts.giveBack === 'function'
  );
}

/** The process's counts for `scope`, made on first use. */
export function processCounts(scope: CountScope): LocalCounts {
  const { byKeyId, byProvider } = registry();
  if (typeof scope === 'string') {
    const id = toBase64Url(createDigest('sha256').update(`sms-access-key-id:${scope}`).bytes());
    const found = byKeyId.get(id);
    if (usable(found)) return found;
    const counts = new LocalCounts();
    byKeyId.set(id, counts);
    return counts;
  }
  const found = byProvider.get(scope);
  if (usable(found)) return found;
  const counts = new LocalCounts();
  byProvider.set(scope, counts);
  return counts;
}
