/**
 * The event queue of the lookups simulations (`rate-limited-service.ts`, `slow-answer.ts`):
 * events kept sorted by time, an event scheduled for the same time as others after them.
 */
export class Timeline<E extends { readonly at: number }> {
  readonly #events: E[] = [];

  /** Adds `event` in time order (a binary insert). */
  schedule(event: E): void {
    let lo = 0;
    let hi = this.#events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.#events[mid] as E).at <= event.at) lo = mid + 1;
      else hi = mid;
    }
    this.#events.splice(lo, 0, event);
  }

  /** The earliest event, taken off the timeline; `undefined` once it is empty. */
  next(): E | undefined {
    return this.#events.shift();
  }
}
