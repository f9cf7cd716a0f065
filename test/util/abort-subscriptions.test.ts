import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { SharedAbort } from '../../src/util/abort-like.js';
import { onAbort } from '../../src/util/abort-subscriptions.js';

describe('onAbort', () => {
  it('gives a signal one listener however many subscribe, and none once all have left', () => {
    const controller = new AbortController();
    const unsubscribes = Array.from({ length: 50 }, () => onAbort(controller.signal, () => undefined));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    for (const unsubscribe of unsubscribes) unsubscribe();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    // Leaving twice changes nothing; a new subscriber brings the listener back.
    unsubscribes[0]?.();
    const again = onAbort(controller.signal, () => undefined);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    again();
  });

  it('calls every subscriber still there once, and none that left', () => {
    const controller = new AbortController();
    const calls: number[] = [];
    const leave = onAbort(controller.signal, () => calls.push(1));
    onAbort(controller.signal, () => calls.push(2));
    onAbort(controller.signal, () => calls.push(3));
    leave();
    controller.abort();
    controller.abort();
    expect(calls).toEqual([2, 3]);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('a subscriber may leave or join while the signal fires', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    let leaveB = (): void => undefined;
    onAbort(controller.signal, () => {
      calls.push('a');
      leaveB();
    });
    leaveB = onAbort(controller.signal, () => calls.push('b'));
    controller.abort();
    // The snapshot taken at abort time still calls b: like EventTarget, which calls listeners present at dispatch.
    expect(calls).toEqual(['a', 'b']);
  });

  it('uses a SharedAbort directly', () => {
    const shared = new SharedAbort();
    const calls: number[] = [];
    const leave = onAbort(shared, () => calls.push(1));
    onAbort(shared, () => calls.push(2));
    leave();
    shared.abort();
    expect(calls).toEqual([2]);
  });
});
