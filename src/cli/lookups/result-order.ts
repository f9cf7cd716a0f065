/**
 * The lookups room: in which order results are reported. Imports nothing.
 *
 * Lookups end in any order. `lookup` reports them in input order by default
 * (`--order input`): each item takes a ticket as it is fed, and a result
 * waits until every result before it is out. A lookup that takes long (a
 * retry, a slow answer) holds back the results after it, and once `window`
 * items are waiting behind it, the feeding of new ones too: memory stays
 * bounded. It holds output, not the pace: a push-back met while feeding is
 * held sets no pace (`concurrency-limit.ts`). `--order completion` reports each result as it ends.
 */

/** Where a pipeline gets tickets and hands results in. */
export interface ResultOrder {
  /** A ticket for the next item fed. */
  ticket(): number;
  /** Whether one more item may be fed (the window is not full). */
  hasRoom(): boolean;
  /** The result of `ticket`: `deliver` runs now, or once every earlier ticket's has. */
  settle(ticket: number, deliver: () => void): void;
}

/** Each result as it ends. */
export class CompletionOrder implements ResultOrder {
  #issued = 0;
  ticket(): number {
    return this.#issued++;
  }
  hasRoom(): boolean {
    return true;
  }
  settle(_ticket: number, deliver: () => void): void {
    deliver();
  }
}

/** Results in input order, at most `window` items between the oldest unreported and the newest fed. */
export class InputOrder implements ResultOrder {
  #issued = 0;
  #delivered = 0;
  readonly #held = new Map<number, () => void>();
  readonly #window: number;

  /** @param window - items fed ahead of the oldest unreported one, at most. */
  constructor(window: number) {
    this.#window = window;
  }

  ticket(): number {
    return this.#issued++;
  }

  hasRoom(): boolean {
    return this.#issued - this.#delivered < this.#window;
  }

  settle(ticket: number, deliver: () => void): void {
    if (ticket !== this.#delivered) {
      this.#held.set(ticket, deliver);
      return;
    }
    deliver();
    this.#delivered += 1;
    for (let next = this.#held.get(this.#delivered); next !== undefined; next = this.#held.get(this.#delivered)) {
      this.#held.delete(this.#delivered);
      next();
      this.#delivered += 1;
    }
  }
}

/** Items fed ahead of the oldest unreported result under `--order input`: enough for every thread's lookups in flight. */
export const ORDER_WINDOW = 16_384;
