import { describe, expect, it } from 'vitest';
import { HashScanError } from '../../src/errors/hashscan-error.js';
import type { ScanOutcome } from '../../src/hashscan/scan-result.js';
import { json, MD5, makeClient, NOT_DETECTED, SHA256, serveLookup } from '../helpers/hash-lookup.js';
import { useMswServer } from '../helpers/msw.js';

const server = useMswServer();

/** Entries whose string conversion throws, and other non-strings. */
function hostileEntries(): unknown[] {
  const throwing = {
    toString(): string {
      throw new Error('toString exploded');
    },
  };
  const throwingPrimitive = {
    [Symbol.toPrimitive](): string {
      throw new Error('toPrimitive exploded');
    },
  };
  return [
    throwing,
    throwingPrimitive,
    Object.create(null),
    null,
    undefined,
    42,
    Symbol('s'),
    10n,
    [SHA256],
    () => SHA256,
  ];
}

const codeOf = (outcome: ScanOutcome | undefined): string | undefined =>
  outcome?.verdict === 'error' ? outcome.error.code : outcome?.verdict;

describe('hostile entries never crash a batch', () => {
  it('scanMany: each non-string is its own INVALID_HASH outcome, the valid entries are looked up', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const hostile = hostileEntries();
    const outcomes = await makeClient().scanMany([SHA256, ...hostile, MD5] as unknown as string[]);

    expect(outcomes).toHaveLength(hostile.length + 2);
    expect(codeOf(outcomes[0])).toBe('not_detected');
    expect(codeOf(outcomes.at(-1))).toBe('not_detected');
    for (const outcome of outcomes.slice(1, -1)) {
      expect(outcome.verdict).toBe('error');
      if (outcome.verdict !== 'error') continue;
      expect(outcome.error).toBeInstanceOf(HashScanError);
      expect(outcome.error.code).toBe('INVALID_HASH');
      expect(outcome.hash).toBe('');
    }
    expect(requests.map((r) => r.hash).sort()).toEqual([MD5, SHA256].sort());
  });

  it('scanMany: an element getter that throws is an INVALID_HASH outcome for that index', async () => {
    serveLookup(server, () => json(NOT_DETECTED));
    const hashes = [SHA256, MD5];
    Object.defineProperty(hashes, 1, {
      get() {
        throw new Error('getter exploded');
      },
    });
    const outcomes = await makeClient().scanMany(hashes);
    expect(outcomes.map(codeOf)).toEqual(['not_detected', 'INVALID_HASH']);
  });

  it('scanMany: a sparse array gets an outcome at every index, a hole being INVALID_HASH', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    // biome-ignore lint/suspicious/noSparseArray: holes are the subject
    const sparse = [SHA256, , MD5, , ,] as string[];
    const wide = new Array<string>(5);
    wide[3] = SHA256;
    const [outcomes, wideOutcomes] = await Promise.all([makeClient().scanMany(sparse), makeClient().scanMany(wide)]);

    expect(outcomes).toHaveLength(5);
    expect(Object.keys(outcomes)).toEqual(['0', '1', '2', '3', '4']);
    expect(outcomes.map(codeOf)).toEqual([
      'not_detected',
      'INVALID_HASH',
      'not_detected',
      'INVALID_HASH',
      'INVALID_HASH',
    ]);
    expect(Object.keys(wideOutcomes)).toHaveLength(5);
    expect(wideOutcomes.map(codeOf)).toEqual([
      'INVALID_HASH',
      'INVALID_HASH',
      'INVALID_HASH',
      'not_detected',
      'INVALID_HASH',
    ]);
    expect(requests).toHaveLength(3);
  });

  it('scanMany: a hostile entry does not stop onProgress from counting every index', async () => {
    serveLookup(server, () => json(NOT_DETECTED));
    const progress: number[] = [];
    const hashes = [SHA256, Object.create(null), MD5] as unknown as string[];
    await makeClient().scanMany(hashes, { onProgress: ({ done }) => progress.push(done) });
    expect(progress.at(-1)).toBe(3);
  });

  it('scanMany: an onProgress that throws rejects the batch with its error and stops the other lookups', async () => {
    const requests = serveLookup(server, async (hash) => {
      if (hash !== SHA256) await new Promise(() => undefined);
      return json(NOT_DETECTED);
    });
    const failure = new Error('progress bar broke');
    const hashes = [SHA256, MD5, '0'.repeat(64), '1'.repeat(64), '2'.repeat(64)];
    const batch = makeClient().scanMany(hashes, {
      concurrency: 2,
      onProgress: () => {
        throw failure;
      },
    });
    await expect(batch).rejects.toBe(failure);
    // The lookup still running was aborted and no new one started.
    expect(requests.length).toBeLessThanOrEqual(3);
  });

  it('scanMany: something that is not an array rejects with a typed error, sends nothing', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    for (const input of [null, undefined, SHA256, { length: 1, 0: SHA256 }, new Set([SHA256])]) {
      const error = await makeClient()
        .scanMany(input as unknown as string[])
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HashScanError);
      expect(error).toMatchObject({ code: 'INVALID_HASH', message: expect.stringMatching(/array/) });
    }
    expect(requests).toHaveLength(0);
  });

  it('scanIterable: each non-string is an INVALID_HASH outcome, from a sync or an async source, and the loop ends', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const entries = [SHA256, ...hostileEntries(), MD5];
    async function* asyncSource(): AsyncGenerator<unknown> {
      yield* entries;
    }
    for (const source of [entries, asyncSource()]) {
      const outcomes: ScanOutcome[] = [];
      for await (const outcome of makeClient().scanIterable(source as Iterable<string>))
        outcomes[outcome.index] = outcome;
      expect(outcomes).toHaveLength(entries.length);
      expect(codeOf(outcomes[0])).toBe('not_detected');
      expect(codeOf(outcomes.at(-1))).toBe('not_detected');
      expect(outcomes.slice(1, -1).map(codeOf)).toEqual(entries.slice(1, -1).map(() => 'INVALID_HASH'));
    }
    expect(requests).toHaveLength(4);
  });

  it('scanIterable: a source that is not iterable ends the loop with a typed error', async () => {
    for (const input of [null, 42, SHA256, {}]) {
      const loop = async (): Promise<void> => {
        for await (const _ of makeClient().scanIterable(input as unknown as string[])) {
          // nothing
        }
      };
      await expect(loop()).rejects.toMatchObject({ name: 'HashScanError', code: 'INVALID_HASH' });
    }
  });

  it('scan: a custom fetch that rejects with a value whose conversion throws still rejects a typed error', async () => {
    for (const thrown of hostileEntries()) {
      const client = makeClient({ fetch: () => Promise.reject(thrown), retry: { retries: 0 } });
      const error = await client.scan(SHA256).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HashScanError);
      expect((error as HashScanError).code).toBe('NETWORK');
    }
  });

  it('scan: any non-string rejects with a typed INVALID_HASH error and sends nothing', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    for (const input of hostileEntries()) {
      const error = await makeClient()
        .scan(input as string)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HashScanError);
      expect((error as HashScanError).code).toBe('INVALID_HASH');
    }
    expect(requests).toHaveLength(0);
  });
});
