import { maskJson } from '../secrets/mask-json.js';
import type { Redactor } from '../secrets/redact.js';

/** A parsed, frozen response body. */
type Body = Readonly<Record<string, unknown>>;

/**
 * Lets results of identical non-detection bodies share one frozen `raw` (and
 * its `message`), instead of each keeping its own copy of the same parse: a
 * batch of 500 000 hashes otherwise holds 500 000 copies of one small
 * object. Every response is still interpreted in full; only the copy kept is
 * swapped, and only when the body text is byte for byte the one that gave
 * the shared `raw`, which the parse then gives again. The kept `raw` is
 * masked (`maskJson`), so an identical body is masked once.
 */
export class SharedBodies {
  #text: string | undefined;
  #raw: Body | undefined;

  /** The `raw` of the last non-detection body identical to `text`, else `raw` masked (kept for the next one). */
  raw(text: string, raw: Body, redact: Redactor): Body {
    if (text === this.#text && this.#raw !== undefined) return this.#raw;
    const masked = maskJson(text, raw, redact);
    this.#text = text;
    this.#raw = masked;
    return masked;
  }
}
