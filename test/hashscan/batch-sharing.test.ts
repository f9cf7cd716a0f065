import { describe, expect, it } from 'vitest';
import type { ScanOutcome } from '../../src/hashscan/scan-result.js';
import { HIT, json, MD5, makeClient, NOT_DETECTED, SHA1, SHA256, serveLookup } from '../helpers/hash-lookup.js';
import { useMswServer } from '../helpers/msw.js';

const server = useMswServer();
const hex = (n: number): string => n.toString(16).padStart(64, '0');
const rawOf = (outcome: ScanOutcome | undefined): unknown => (outcome?.verdict === 'error' ? undefined : outcome?.raw);

describe('scanMany keeps one copy of what outcomes share', () => {
  it('non-detections with the same body share one frozen raw and message; duplicates share one outcome', async () => {
    serveLookup(server, () => json(NOT_DETECTED));
    const hashes = [hex(1), hex(2), hex(3), hex(1).toUpperCase(), hex(2)];
    const outcomes = await makeClient().scanMany(hashes, { concurrency: 2 });

    expect(outcomes.map((o) => o.verdict)).toEqual(hashes.map(() => 'not_detected'));
    expect(outcomes.map((o) => o.hash)).toEqual([hex(1), hex(2), hex(3), hex(1), hex(2)]);
    const raw = rawOf(outcomes[0]);
    expect(raw).toEqual(NOT_DETECTED);
    expect(Object.isFrozen(raw)).toBe(true);
    for (const outcome of outcomes) {
      expect(rawOf(outcome)).toBe(raw);
      expect(Object.isFrozen(outcome)).toBe(true);
    }
    expect(outcomes[3]).toBe(outcomes[0]);
    expect(outcomes[4]).toBe(outcomes[1]);
    // An input already in lower case is kept, not copied.
    expect(outcomes[0]?.hash).toBe(hashes[0]);
  });

  it('a different body keeps its own raw; hits are never merged with anything', async () => {
    serveLookup(server, (hash) => {
      if (hash === MD5) return json(HIT);
      if (hash === SHA1) return json({ ...NOT_DETECTED, message: 'another wording' });
      return json(NOT_DETECTED);
    });
    const outcomes = await makeClient().scanMany([SHA256, MD5, SHA1, hex(9)], { concurrency: 1 });
    expect(outcomes.map((o) => o.verdict)).toEqual(['not_detected', 'malicious', 'not_detected', 'not_detected']);
    expect(rawOf(outcomes[2])).toEqual({ ...NOT_DETECTED, message: 'another wording' });
    expect(outcomes[2]?.verdict === 'not_detected' && outcomes[2].message).toBe('another wording');
    expect(outcomes[3]?.verdict === 'not_detected' && outcomes[3].message).toBe(NOT_DETECTED.message);
    expect(rawOf(outcomes[1])).toEqual(HIT);
    expect(rawOf(outcomes[3])).toEqual(NOT_DETECTED);
  });
});
