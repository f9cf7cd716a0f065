import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompletionOrder, InputOrder } from '../../../src/cli/lookups/result-order.js';

describe('result order', () => {
  it('input order: whatever order results end in, they go out by ticket', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 200 }), (keys) => {
        const order = new InputOrder(1000);
        const tickets = keys.map(() => order.ticket());
        // The results end in an order given by the random keys.
        const ending = tickets.map((ticket, i) => ({ ticket, key: keys[i] as number })).sort((a, b) => a.key - b.key);
        const out: number[] = [];
        for (const { ticket } of ending) order.settle(ticket, () => out.push(ticket));
        expect(out).toEqual(tickets);
      }),
    );
  });

  it('input order: no more than the window fed ahead of the oldest result not out', () => {
    const order = new InputOrder(3);
    const [first, second, third] = [order.ticket(), order.ticket(), order.ticket()];
    expect(order.hasRoom()).toBe(false);
    const out: number[] = [];
    order.settle(third, () => out.push(third));
    order.settle(second, () => out.push(second));
    expect(order.hasRoom()).toBe(false); // the first holds them back
    order.settle(first, () => out.push(first));
    expect(out).toEqual([0, 1, 2]);
    expect(order.hasRoom()).toBe(true);
  });

  it('completion order: each result at once, never a full window', () => {
    const order = new CompletionOrder();
    const out: number[] = [];
    const tickets = Array.from({ length: 5 }, () => order.ticket());
    for (const ticket of [...tickets].reverse()) order.settle(ticket, () => out.push(ticket));
    expect(out).toEqual([4, 3, 2, 1, 0]);
    expect(order.hasRoom()).toBe(true);
  });
});
