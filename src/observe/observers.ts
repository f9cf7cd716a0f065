import type { Observer, ObserverEvent, ObserverEventType } from './events.js';

/**
 * The observer hub of one client: the list of subscribers, and one flag per
 * event type saying whether anybody reads it. Emitters test the flag before
 * they build an event, so a client nobody observes (the default: a silent
 * logger subscribes to nothing) pays one property read per emitting place.
 * An observer with `active()` (the tracing channels, OpenTelemetry) counts
 * only while it says yes, asked at each of those places.
 */
export class Observers {
  readonly #list: readonly Observer[];
  /** What the observers that are always interested read: every type, or these. */
  readonly #all: boolean;
  readonly #wanted: ReadonlySet<ObserverEventType>;
  /** Observers whose interest comes and goes (they have `active()`). */
  readonly #sometimes: readonly Observer[];
  readonly #always: boolean;

  constructor(list: readonly Observer[] = []) {
    this.#list = list;
    const steady = list.filter((observer) => observer.active === undefined);
    this.#sometimes = list.filter((observer) => observer.active !== undefined);
    this.#always = steady.length > 0;
    this.#all = steady.some((observer) => observer.types === undefined);
    this.#wanted = new Set(steady.flatMap((observer) => observer.types ?? []));
  }

  /** Whether any subscriber reads any event now. */
  get active(): boolean {
    return this.#always || this.#sometimes.some(isActive);
  }

  /** Whether an event of `type` would reach a subscriber now: build it only then. */
  listens(type: ObserverEventType): boolean {
    if (this.#all || this.#wanted.has(type)) return true;
    for (const observer of this.#sometimes) {
      if ((observer.types === undefined || observer.types.includes(type)) && isActive(observer)) return true;
    }
    return false;
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

function isActive(observer: Observer): boolean {
  try {
    return observer.active?.() !== false;
  } catch {
    return false;
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
