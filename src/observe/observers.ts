import type { Observer, ObserverEvent, ObserverEventType } from './events.js';

/**
 * The observer hub of one client: the list of subscribers, and one flag per
 * event type saying whether anybody reads it. Emitters test the flag before
 * they build an event, so a client nobody observes (the default: a silent
 * logger subscribes to nothing) pays one property read per emitting place.
 */
export class Observers {
  readonly #list: readonly Observer[];
  readonly #wanted: ReadonlySet<ObserverEventType> | undefined;
  /** Whether any subscriber reads any event. */
  readonly active: boolean;
  /** Whether any subscriber reads every type (then {@link listens} is always true). */
  readonly #all: boolean;

  constructor(list: readonly Observer[] = []) {
    this.#list = list;
    this.active = list.length > 0;
    this.#all = list.some((observer) => observer.types === undefined);
    this.#wanted = this.#all ? undefined : new Set(list.flatMap((observer) => observer.types ?? []));
  }

  /** Whether an event of `type` would reach a subscriber: build it only then. */
  listens(type: ObserverEventType): boolean {
    return this.#all || (this.#wanted?.has(type) ?? false);
  }

  /** Hands `event` to every subscriber that reads its type; a subscriber that throws is skipped. */
  emit(event: ObserverEvent): void {
    for (const observer of this.#list) {
      if (observer.types !== undefined && !observer.types.includes(event.type)) continue;
      try {
        observer.observe(event);
      } catch {
        // A subscriber's bug must not fail or slow the call it watches.
      }
    }
  }
}

/** The hub of a client nobody observes. */
export const NO_OBSERVERS = new Observers();

/**
 * The internal way to subscribe observers to a client: a symbol-keyed field
 * of the client's options, read by the transport settings. Not exported by
 * the package (the public option is a separate, documented one).
 */
export const INTERNAL_OBSERVERS: unique symbol = Symbol('hashscan-sms.observers');

/** Client options that may carry {@link INTERNAL_OBSERVERS}. */
export interface WithInternalObservers {
  readonly [INTERNAL_OBSERVERS]?: readonly Observer[];
}
