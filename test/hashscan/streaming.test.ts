import { delay } from 'msw';
import { describe, expect, it } from 'vitest';
import type { IndexedScanOutcome } from '../../src/hashscan/scan-result.js';
import { json, makeClient, NOT_DETECTED, serveLookup } from '../helpers/hash-lookup.js';
import { useMswServer } from '../helpers/msw.js';

const server = useMswServer();

const hex = (n: number): string => n.toString(16).padStart(64, '0');

/** A promise and its resolver. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Collects the loop's outcomes, failing (instead of running forever) past `limit`. */
async function collect(
  loop: AsyncIterable<IndexedScanOutcome>,
  onEach: (outcome: IndexedScanOutcome) => void = () => undefined,
  limit = 1_000,
): Promise<IndexedScanOutcome[]> {
  const seen: IndexedScanOutcome[] = [];
  for await (const outcome of loop) {
    seen.push(outcome);
    onEach(outcome);
    if (seen.length > limit) throw new Error(`more than ${limit} outcomes`);
  }
  return seen;
}

describe('scanIterable streams', () => {
  it('yields a finished outcome while the source is still waiting for its next value', async () => {
    serveLookup(server, () => json(NOT_DETECTED));
    // The source gives its second hash only once the first outcome is out: if outcomes
    // waited for the source (or for `concurrency` inputs), this would never end.
    const firstOut = gate();
    async function* source(): AsyncGenerator<string> {
      yield hex(0);
      await firstOut.promise;
      yield hex(1);
    }
    const outcomes = await collect(makeClient().scanIterable(source(), { concurrency: 8 }), (outcome) => {
      if (outcome.index === 0) firstOut.open();
    });
    expect(outcomes.map((o) => [o.index, o.verdict])).toEqual([
      [0, 'not_detected'],
      [1, 'not_detected'],
    ]);
  });

  it('a stalled source never holds back finished outcomes; aborting then ends the loop at once', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const controller = new AbortController();
    let closed = false;
    async function* stalled(): AsyncGenerator<string> {
      try {
        yield hex(0);
        yield hex(1);
        await new Promise(() => undefined); // never yields again
      } finally {
        closed = true;
      }
    }
    const outcomes = await collect(makeClient().scanIterable(stalled(), { signal: controller.signal }), (outcome) => {
      if (outcome.index === 1) controller.abort();
    });
    expect(outcomes.map((o) => o.index).sort()).toEqual([0, 1]);
    expect(requests).toHaveLength(2);
    // The stalled pull cannot be interrupted: the source is closed whenever it resumes.
    expect(closed).toBe(false);
  });

  it('after the signal aborts: stops pulling at once, settles the lookups in flight as ABORTED, ends', async () => {
    const requests = serveLookup(server, async (hash) => {
      if (hash !== hex(0)) await delay('infinite');
      return json(NOT_DETECTED);
    });
    const controller = new AbortController();
    let pulled = 0;
    let closed = false;
    function* endless(): Generator<string> {
      try {
        for (let i = 0; ; i++) {
          pulled += 1;
          yield hex(i);
        }
      } finally {
        closed = true;
      }
    }
    let pulledAtAbort = -1;
    const outcomes = await collect(
      makeClient().scanIterable(endless(), { concurrency: 4, signal: controller.signal }),
      (outcome) => {
        if (outcome.index === 0) {
          pulledAtAbort = pulled;
          controller.abort();
        }
      },
    );
    expect(pulled).toBe(pulledAtAbort);
    expect(outcomes[0]).toMatchObject({ index: 0, verdict: 'not_detected' });
    const rest = outcomes.slice(1);
    expect(rest.length).toBeLessThanOrEqual(4);
    expect(rest.length).toBe(pulled - 1);
    for (const outcome of rest) expect(outcome.verdict === 'error' && outcome.error.code).toBe('ABORTED');
    expect(requests.length).toBeLessThanOrEqual(5);
    expect(closed).toBe(true);
  });

  it('a signal already aborted pulls nothing and ends at once', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    let pulled = 0;
    function* endless(): Generator<string> {
      for (let i = 0; ; i++) {
        pulled += 1;
        yield hex(i);
      }
    }
    const outcomes = await collect(makeClient().scanIterable(endless(), { signal: AbortSignal.abort() }));
    expect(outcomes).toEqual([]);
    expect(pulled).toBe(0);
    expect(requests).toHaveLength(0);
  });

  it('breaking out while the source is stalled ends the loop and aborts the lookups still running', async () => {
    const requests = serveLookup(server, async (hash) => {
      if (hash !== hex(0)) await delay('infinite');
      return json(NOT_DETECTED);
    });
    async function* source(): AsyncGenerator<string> {
      yield hex(0);
      yield hex(1);
      await new Promise(() => undefined);
    }
    const client = makeClient();
    for await (const outcome of client.scanIterable(source(), { concurrency: 4 })) {
      expect(outcome.index).toBe(0);
      break;
    }
    expect(requests).toHaveLength(2);
    // The lookup of hex(1) was aborted: a new scan of it sends a new request.
    serveLookup(server, () => json(NOT_DETECTED));
    await expect(client.scan(hex(1))).resolves.toMatchObject({ verdict: 'not_detected' });
  });

  it('a source that throws: the lookups already started are yielded, then the loop rejects with its error', async () => {
    serveLookup(server, async () => {
      await delay(10);
      return json(NOT_DETECTED);
    });
    const failure = new Error('cursor lost');
    async function* failing(): AsyncGenerator<string> {
      yield hex(0);
      yield hex(1);
      throw failure;
    }
    const seen: number[] = [];
    const loop = collect(makeClient().scanIterable(failing(), { concurrency: 4 }), (o) => seen.push(o.index));
    await expect(loop).rejects.toBe(failure);
    expect(seen.sort()).toEqual([0, 1]);
  });

  it('onProgress: done per outcome, total unknown until the source has ended', async () => {
    serveLookup(server, async (hash) => {
      await delay(hash === hex(2) ? 30 : 1);
      return json(NOT_DETECTED);
    });
    const progress: { done: number; total: number | undefined }[] = [];
    const outcomes = await collect(
      makeClient().scanIterable([hex(0), hex(1), hex(2)], { concurrency: 1, onProgress: (p) => progress.push(p) }),
    );
    expect(outcomes).toHaveLength(3);
    // With concurrency 1 the end of the source shows only after the last outcome: one more call says the total.
    expect(progress).toEqual([
      { done: 1, total: undefined },
      { done: 2, total: undefined },
      { done: 3, total: undefined },
      { done: 3, total: 3 },
    ]);

    // A source that ends before the first outcome: the total is known from the start.
    const early: { done: number; total: number | undefined }[] = [];
    await collect(makeClient().scanIterable([hex(0), hex(1)], { concurrency: 8, onProgress: (p) => early.push(p) }));
    expect(early).toEqual([
      { done: 1, total: 2 },
      { done: 2, total: 2 },
    ]);
  });

  it('onProgress that throws ends the loop with its error and aborts the lookups still running', async () => {
    serveLookup(server, async (hash) => {
      if (hash !== hex(0)) await delay('infinite');
      return json(NOT_DETECTED);
    });
    const failure = new Error('progress bar broke');
    const loop = collect(
      makeClient().scanIterable([hex(0), hex(1), hex(2)], {
        onProgress: () => {
          throw failure;
        },
      }),
    );
    await expect(loop).rejects.toBe(failure);
  });
});
