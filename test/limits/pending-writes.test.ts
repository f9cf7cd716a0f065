import { describe, expect, it } from 'vitest';
import type { LimitRule, SendLimit } from '../../src/limits/limits-options.js';
import type { Want } from '../../src/limits/local-counts.js';
import { type PendingOp, PendingWrites } from '../../src/limits/pending-writes.js';

// What one replica keeps for Redis while it cannot write: sends it let through on its own count
// ("record") are never forgotten; when no room is left, the oldest refund is the one that goes.

const rule = (limit: SendLimit): LimitRule => ({
  scope: limit === 'dailyBudget' ? 'budget' : 'perRecipient',
  limit,
  max: 1,
  windowMs: 60_000,
});
const want = (key: string, limit: SendLimit = 'perMinute'): Want => ({ rule: rule(limit), key, points: 1 });
const op = (kind: PendingOp['kind'], ...wants: Want[]): PendingOp => ({
  kind,
  wants,
  creditLocal: false,
  running: false,
});
const CAPACITY = 1_000;

describe('PendingWrites', () => {
  it('when full, the oldest refund makes room for a send; sends stay', () => {
    const pending = new PendingWrites();
    pending.keep('refund-old', op('refund', want('n:0')));
    for (let i = 1; i < CAPACITY - 1; i++) pending.keep(`send-${i}`, op('record', want(`n:${i}`)));
    pending.keep('refund-new', op('refund', want('n:x')));
    expect(pending.size).toBe(CAPACITY);
    pending.keep('send-last', op('record', want('n:last')));
    expect(pending.size).toBe(CAPACITY);
    expect(pending.get('refund-old')).toBeUndefined(); // the oldest refund went
    expect(pending.get('refund-new')).toBeDefined(); // not the newer one
    expect(pending.get('send-last')).toBeDefined();
    expect(pending.get('send-1')).toBeDefined();
    expect(pending.unrecorded([want('n:last')])).toBe(true);
  });

  it('full of sends Redis has not recorded: a refund is left out, never a send, and there is no room for more', () => {
    const pending = new PendingWrites();
    for (let i = 0; i < CAPACITY; i++) pending.keep(`send-${i}`, op('record', want(`n:${i}`)));
    pending.keep('refund', op('refund', want('n:0')));
    expect(pending.get('refund')).toBeUndefined();
    expect(pending.size).toBe(CAPACITY);
    expect(pending.makeRoom()).toBe(false);
    pending.keep('send-more', op('record', want('n:more')));
    expect(pending.get('send-more')).toBeUndefined();
    expect([...pending.entries()].every(([, kept]) => kept.kind === 'record')).toBe(true);
    expect(pending.unrecorded([want('n:0')])).toBe(true);
  });

  it('marks a number unrecorded until its last send is written; the daily budget is never a number', () => {
    const pending = new PendingWrites();
    pending.keep('a', op('record', want('n:1'), want('budget', 'dailyBudget')));
    pending.keep('b', op('record', want('n:1')));
    expect(pending.unrecorded([want('n:1')])).toBe(true);
    expect(pending.unrecorded([want('budget', 'dailyBudget')])).toBe(false);
    pending.drop('a');
    expect(pending.unrecorded([want('n:1')])).toBe(true); // 'b' still unwritten
    pending.keep('b', op('refund', want('n:1'))); // the same token, now a refund in place of its send
    expect(pending.unrecorded([want('n:1')])).toBe(false);
    expect(pending.size).toBe(1);
  });
});
