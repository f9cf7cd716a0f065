import type { ScanResult } from './scan-result.js';

/**
 * Lets results of identical non-detection bodies share one frozen `raw` (and
 * `message`), instead of each keeping its own copy of the same parse: a
 * batch of 500 000 hashes otherwise holds 500 000 copies of one small
 * object. Every response is still interpreted in full; only the copy kept is
 * swapped, and only when the body text is byte for byte the one that gave
 * the shared `raw`, which the parse then gives again.
 */
export class SharedBodies {
  #text: string | undefined;
  #result: ScanResult | undefined;

  /** `result`, with the `raw` and `message` of the last identical non-detection body. */
  share(text: string, result: ScanResult): ScanResult {
    if (result.verdict !== 'not_detected') return result;
    const last = this.#result;
    if (last?.verdict !== 'not_detected' || text !== this.#text) {
      this.#text = text;
      this.#result = result;
      return result;
    }
    return Object.freeze({ ...result, message: last.message, raw: last.raw });
  }
}
