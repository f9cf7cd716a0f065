import { describe, expect, it } from 'vitest';
import { SharedAbort } from '../../src/util/abort-like.js';
import { isIterable, type StreamOptions, streamConcurrent } from '../../src/util/concurrency.js';

const options = (extra: Partial<StreamOptions<unknown, unknown>> = {}): StreamOptions<unknown, unknown> => ({
  concurrency: 2,
  task: async (item) => item,
  stop: new SharedAbort(),
  cancel: () => undefined,
  ...extra,
});

async function drain(source: Iterable<unknown> | AsyncIterable<unknown>, extra = {}): Promise<unknown[]> {
  const values: unknown[] = [];
  for await (const { value } of streamConcurrent(source, options(extra))) values.push(value);
  return values;
}

/** An iterable over a hand-made iterator. */
const iterable = (iterator: object): Iterable<unknown> => ({ [Symbol.iterator]: () => iterator as Iterator<unknown> });

describe('streamConcurrent against misbehaving sources', () => {
  it('a next() that throws ends the stream with its error', async () => {
    const failure = new Error('next failed');
    await expect(
      drain(
        iterable({
          next: () => {
            throw failure;
          },
        }),
      ),
    ).rejects.toBe(failure);
  });

  it('a step that is not an object ends the stream with a TypeError', async () => {
    await expect(drain(iterable({ next: () => 42 }))).rejects.toThrow(TypeError);
    const asyncSource = {
      [Symbol.asyncIterator]: () => ({ next: async () => null }),
    } as unknown as AsyncIterable<unknown>;
    await expect(drain(asyncSource)).rejects.toThrow(TypeError);
  });

  it('a step whose `done` getter throws ends the stream with that error', async () => {
    const failure = new Error('done exploded');
    const step = {
      get done(): boolean {
        throw failure;
      },
    };
    await expect(drain(iterable({ next: () => step }))).rejects.toBe(failure);
    const asyncSource = {
      [Symbol.asyncIterator]: () => ({ next: async () => step }),
    } as unknown as AsyncIterable<unknown>;
    await expect(drain(asyncSource)).rejects.toBe(failure);
  });

  it('an async next() that rejects ends the stream after the tasks already started', async () => {
    const failure = new Error('cursor lost');
    let calls = 0;
    const source = {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          calls += 1;
          if (calls > 2) throw failure;
          return { done: false, value: calls };
        },
      }),
    };
    const seen: unknown[] = [];
    const loop = async (): Promise<void> => {
      for await (const { value } of streamConcurrent(source, options())) seen.push(value);
    };
    await expect(loop()).rejects.toBe(failure);
    expect(seen.sort()).toEqual([1, 2]);
  });

  it('a return() that throws does not break leaving the loop', async () => {
    let n = 0;
    const source = iterable({
      next: () => ({ done: false, value: n++ }),
      return: () => {
        throw new Error('return exploded');
      },
    });
    const cancelled: boolean[] = [];
    for await (const { value } of streamConcurrent(source, options({ cancel: () => cancelled.push(true) }))) {
      expect(value).toBe(0);
      break;
    }
    expect(cancelled).toEqual([true]);
  });

  it('a task that rejects (against its contract) ends the stream with its error, nothing unhandled', async () => {
    const failure = new Error('task failed');
    await expect(
      drain([1, 2, 3], {
        task: async (item: unknown) => {
          if (item === 2) throw failure;
          return item;
        },
      }),
    ).rejects.toBe(failure);
  });

  it('tells iterables from everything else without calling anything', () => {
    expect(isIterable([])).toBe(true);
    expect(isIterable(new Map())).toBe(true);
    expect(isIterable({ [Symbol.asyncIterator]: () => undefined })).toBe(true);
    for (const value of [null, undefined, 42, 'abc', {}, () => undefined]) expect(isIterable(value)).toBe(false);
  });
});

describe('streamConcurrent: emit and onClose', () => {
  it('yields what emit makes of each result, then says it completed', async () => {
    const closed: boolean[] = [];
    const yielded: unknown[] = [];
    const stream = streamConcurrent(['a', 'b', 'c'], {
      ...options(),
      emit: (index, value) => `${index}:${String(value)}`,
      onClose: (completed) => closed.push(completed),
    });
    for await (const item of stream) yielded.push(item);
    expect(yielded.sort()).toEqual(['0:a', '1:b', '2:c']);
    expect(closed).toEqual([true]);
  });

  it('says it did not complete when the consumer leaves early or the source throws, once each', async () => {
    const closed: boolean[] = [];
    for await (const _ of streamConcurrent([1, 2, 3], { ...options(), onClose: (done) => closed.push(done) })) break;
    const failing = (function* () {
      yield 1;
      throw new Error('source failed');
    })();
    await expect(drain(failing, { onClose: (done: boolean) => closed.push(done) })).rejects.toThrow('source failed');
    expect(closed).toEqual([false, false]);
  });
});
