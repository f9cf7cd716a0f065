/**
 * What the transport needs of an abort signal. `AbortSignal` is one; so is
 * {@link SharedAbort}, which is far cheaper to create.
 */
export interface AbortLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * A one-shot abort flag with listeners, for work that is almost never
 * aborted. Node's `AbortController` costs microseconds to create (each
 * signal is made transferable), which a lookup answered in tens of
 * microseconds cannot afford; this behaves like a controller and its signal
 * together for every use the transport makes of them.
 */
export class SharedAbort implements AbortLike {
  #aborted = false;
  #reason: unknown;
  /** The usual case, one listener, costs no `Set`: the first listener is kept here, further ones in `#more`. */
  #first: (() => void) | undefined;
  #more: Set<() => void> | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  /** Like `AbortSignal`: a listener added twice is called once, and none is called after the abort. */
  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.#aborted || listener === this.#first) return;
    if (this.#first === undefined && this.#more === undefined) {
      this.#first = listener;
      return;
    }
    this.#more ??= new Set();
    this.#more.add(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    if (listener === this.#first) this.#first = undefined;
    else this.#more?.delete(listener);
  }

  /** Aborts once, like `AbortController.abort(reason)` (same default reason), and calls each listener once, in the order added. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason ?? new DOMException('This operation was aborted', 'AbortError');
    const first = this.#first;
    const more = this.#more;
    this.#first = undefined;
    this.#more = undefined;
    first?.();
    if (more !== undefined) for (const listener of more) listener();
  }
}
