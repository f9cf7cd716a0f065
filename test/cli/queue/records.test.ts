import { describe, expect, it } from 'vitest';
import type { TextHashLine } from '../../../src/cli/hash-lines.js';
import { checkRecords, REFUSALS } from '../../../src/cli/queue/records.js';
import { keyId, metaSealKey, openMeta, runKey, sealMeta, sealRecord } from '../../../src/cli/queue/seal.js';

const SECRET = 'queue secret of the test';
const NONCE = 'AAAAAAAAAAAAAAAAAAAAAA';
const key = runKey(SECRET, 'run', NONCE);
const id = keyId(SECRET);
const NOW = 1_800_000_000_000;
const fresh = { startedAt: NOW - 10_000, maxAgeMs: 300_000, now: NOW };
const line: TextHashLine = { line: 3, hash: 'a'.repeat(64) } as TextHashLine;
const record = (at: number, hash = line.hash) => JSON.stringify({ verdict: 'not_detected', hash, at });
const check = (stored: string | null, options = fresh) => checkRecords(key, id, 0, [line], [stored], options)[0];

describe('the records of a queued run', () => {
  it('prints a record sealed for this run, chunk and line, answered since the run started and within the maximum age', () => {
    expect(check(sealRecord(key, id, 0, 3, record(NOW - 5_000)))).toEqual({
      result: { verdict: 'not_detected', hash: line.hash, at: NOW - 5_000 },
    });
  });

  it('asks again a record answered before the run, or older than the maximum age (a replay)', () => {
    expect(check(sealRecord(key, id, 0, 3, record(NOW - 10_000 - 61_000)))).toEqual({ refused: REFUSALS.stale });
    expect(check(sealRecord(key, id, 0, 3, record(NOW - 5_000)), { ...fresh, startedAt: 0 })).toEqual({
      result: expect.objectContaining({ verdict: 'not_detected' }),
    });
    expect(check(sealRecord(key, id, 0, 3, record(NOW - 301_000)), { ...fresh, startedAt: 0 })).toEqual({
      refused: REFUSALS.stale,
    });
  });

  it('refuses a record from the future, of another run, line or hash, or forged', () => {
    expect(check(sealRecord(key, id, 0, 3, record(NOW + 120_000)))).toEqual({ refused: REFUSALS.bad });
    const otherRun = runKey(SECRET, 'run', 'BBBBBBBBBBBBBBBBBBBBBB');
    expect(check(sealRecord(otherRun, id, 0, 3, record(NOW)))).toEqual({ refused: REFUSALS.bad });
    expect(check(sealRecord(key, id, 0, 4, record(NOW)))).toEqual({ refused: REFUSALS.bad });
    expect(check(sealRecord(key, id, 0, 3, record(NOW, 'b'.repeat(64))))).toEqual({ refused: REFUSALS.bad });
    expect(check(`q2.${id}.${'A'.repeat(43)}.${record(NOW)}`)).toEqual({ refused: REFUSALS.bad });
    expect(check(record(NOW))).toEqual({ refused: REFUSALS.bad });
  });

  it('names a record sealed with another secret, and a missing one', () => {
    const other = runKey('another secret', 'run', NONCE);
    expect(check(sealRecord(other, keyId('another secret'), 0, 3, record(NOW)))).toEqual({
      refused: REFUSALS.otherKey,
    });
    expect(check(null)).toEqual({ refused: REFUSALS.failed });
    expect(checkRecords(key, id, 0, [line], [null], fresh, REFUSALS.refusedByWorker)[0]).toEqual({
      refused: REFUSALS.refusedByWorker,
    });
  });

  it("seals the run's own record: altered, it does not open", () => {
    const metaKey = metaSealKey(SECRET, 'run');
    const sealed = sealMeta(metaKey, '{"nonce":"x"}');
    expect(openMeta(metaKey, sealed)).toBe('{"nonce":"x"}');
    expect(openMeta(metaKey, sealed.replace('"x"', '"y"'))).toBeUndefined();
    expect(openMeta(metaSealKey(SECRET, 'other run'), sealed)).toBeUndefined();
    expect(keyId(SECRET)).not.toContain(SECRET);
  });
});
