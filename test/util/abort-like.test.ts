import { describe, expect, it, vi } from 'vitest';
import { SharedAbort } from '../../src/util/abort-like.js';
import { linkedSignal } from '../../src/util/linked-signal.js';

describe('SharedAbort behaves like an AbortController and its signal', () => {
  it('aborts once, with the default AbortError reason, calling each listener once', () => {
    const shared = new SharedAbort();
    const listener = vi.fn();
    shared.addEventListener('abort', listener);
    shared.addEventListener('abort', listener);
    expect(shared.aborted).toBe(false);
    shared.abort();
    shared.abort(new Error('again'));
    expect(shared.aborted).toBe(true);
    expect(shared.reason).toBeInstanceOf(DOMException);
    expect((shared.reason as DOMException).name).toBe('AbortError');
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('keeps a given reason, skips removed listeners and never calls one added after the abort', () => {
    const shared = new SharedAbort();
    const removed = vi.fn();
    const late = vi.fn();
    shared.addEventListener('abort', removed);
    shared.removeEventListener('abort', removed);
    const reason = new Error('timed out');
    shared.abort(reason);
    shared.addEventListener('abort', late);
    expect(shared.reason).toBe(reason);
    expect(removed).not.toHaveBeenCalled();
    expect(late).not.toHaveBeenCalled();
  });
});

describe('linkedSignal', () => {
  it("follows the caller's signal with its reason, and stops following once disposed", () => {
    const outer = new AbortController();
    const batch = linkedSignal(outer.signal);
    outer.abort(new Error('stop'));
    expect(batch.signal.aborted).toBe(true);
    expect((batch.signal.reason as Error).message).toBe('stop');

    const other = new AbortController();
    const done = linkedSignal(other.signal);
    done.dispose();
    other.abort();
    expect(done.signal.aborted).toBe(false);
  });

  it('starts aborted when the caller already aborted, and can be aborted on its own', () => {
    const outer = new AbortController();
    outer.abort();
    expect(linkedSignal(outer.signal).signal.aborted).toBe(true);
    const own = linkedSignal(undefined);
    own.abort();
    expect(own.signal.aborted).toBe(true);
  });
});
