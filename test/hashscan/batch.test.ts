import { delay } from 'msw';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/hashscan/decide.js';
import { HIT, json, MD5, makeClient, NOT_DETECTED, SHA1, SHA256, serveLookup } from '../helpers/hash-lookup.js';
import { useMswServer } from '../helpers/msw.js';

const server = useMswServer();

const hex = (n: number, length = 64): string => n.toString(16).padStart(length, '0');

describe('scanMany', () => {
  it('returns one outcome per input in input order, merging identical hashes', async () => {
    const requests = serveLookup(server, (hash) => {
      if (hash === MD5) return json(HIT);
      if (hash === SHA1) return json({ status: 'error' });
      return json(NOT_DETECTED);
    });
    const progress: [number, number][] = [];
    const inputs = [SHA256, MD5, 'nope', SHA256.toUpperCase(), SHA1, MD5, `sha256:${SHA256}`];
    const outcomes = await makeClient().scanMany(inputs, {
      onProgress: ({ done, total }) => progress.push([done, total]),
    });

    expect(outcomes.map((o) => o.verdict)).toEqual([
      'not_detected',
      'malicious',
      'error',
      'not_detected',
      'error',
      'malicious',
      'error',
    ]);
    expect(outcomes.map((o) => o.hash)).toEqual([SHA256, MD5, 'nope', SHA256, SHA1, MD5, `sha256:${SHA256}`]);
    expect(outcomes[2]?.verdict === 'error' && outcomes[2].error.code).toBe('INVALID_HASH');
    expect(outcomes[4]?.verdict === 'error' && outcomes[4].error.code).toBe('STATUS_NOT_SUCCESS');
    expect(outcomes.map((o) => decide(o))).toEqual(['allow', 'block', 'review', 'allow', 'review', 'block', 'review']);

    expect(requests.map((r) => r.hash).sort()).toEqual([MD5, SHA1, SHA256].sort());
    expect(progress.at(-1)).toEqual([7, 7]);
    expect(progress.map(([done]) => done)).toEqual([...progress.map(([done]) => done)].sort((a, b) => a - b));
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const requests = serveLookup(server, async () => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await delay(5);
      inFlight -= 1;
      return json(NOT_DETECTED);
    });
    const hashes = Array.from({ length: 40 }, (_, i) => hex(i));
    const outcomes = await makeClient().scanMany(hashes, { concurrency: 3 });
    expect(outcomes).toHaveLength(40);
    expect(requests).toHaveLength(40);
    expect(peak).toBe(3);
  });

  it('an empty batch makes no request', async () => {
    await expect(makeClient().scanMany([])).resolves.toEqual([]);
  });

  it('rejects a bad concurrency with a configuration error', async () => {
    await expect(makeClient().scanMany([SHA256], { concurrency: 0 })).rejects.toMatchObject({ code: 'CONFIGURATION' });
  });

  it('an aborted batch settles every entry as ABORTED and sends nothing more', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const outcomes = await makeClient().scanMany([SHA256, MD5], { signal: AbortSignal.abort() });
    expect(outcomes.map((o) => o.verdict === 'error' && o.error.code)).toEqual(['ABORTED', 'ABORTED']);
    expect(requests).toHaveLength(0);
  });
});

describe('scanIterable', () => {
  it('yields every outcome with its input index, from a sync or async iterable', async () => {
    serveLookup(server, async (hash) => {
      await delay(hash.endsWith('1') ? 20 : 1);
      return json(NOT_DETECTED);
    });
    const hashes = Array.from({ length: 12 }, (_, i) => hex(i, 32));
    async function* source() {
      yield* hashes;
    }
    for (const input of [hashes, source()]) {
      const seen: number[] = [];
      for await (const outcome of makeClient().scanIterable(input, { concurrency: 4 })) {
        expect(outcome.hash).toBe(hashes[outcome.index]);
        expect(outcome.verdict).toBe('not_detected');
        seen.push(outcome.index);
      }
      expect([...seen].sort((a, b) => a - b)).toEqual(hashes.map((_, i) => i));
    }
  });

  it('pulls no more input than the concurrency allows ahead of the consumer', async () => {
    serveLookup(server, () => json(NOT_DETECTED));
    let pulled = 0;
    function* endless() {
      for (let i = 0; ; i++) {
        pulled += 1;
        yield hex(i);
      }
    }
    let read = 0;
    for await (const outcome of makeClient().scanIterable(endless(), { concurrency: 5 })) {
      expect(outcome.verdict).toBe('not_detected');
      read += 1;
      expect(pulled - read).toBeLessThanOrEqual(5);
      if (read === 30) break;
    }
    expect(read).toBe(30);
  });

  it('stopping early aborts lookups still running and closes the source', async () => {
    const requests = serveLookup(server, async (hash) => {
      if (hash !== hex(0)) await delay('infinite');
      return json(NOT_DETECTED);
    });
    let closed = false;
    function* source() {
      try {
        for (let i = 0; i < 100; i++) yield hex(i);
      } finally {
        closed = true;
      }
    }
    for await (const outcome of makeClient().scanIterable(source(), { concurrency: 3 })) {
      expect(outcome.index).toBe(0);
      break;
    }
    expect(closed).toBe(true);
    expect(requests).toHaveLength(3);
  });

  it('turns invalid entries into error outcomes without requests', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const outcomes = [];
    for await (const outcome of makeClient().scanIterable(['bad', SHA256])) outcomes.push(outcome);
    outcomes.sort((a, b) => a.index - b.index);
    expect(outcomes.map((o) => o.verdict)).toEqual(['error', 'not_detected']);
    expect(requests).toHaveLength(1);
  });
});
