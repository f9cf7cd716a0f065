/**
 * The difference between this machine's clock and the service's, learnt
 * from the `Date` header of its answers (the model is the AWS SDK's
 * `systemClockOffset`). The vendor protocol refuses a `Timestamp` more than
 * 15 minutes away from the server's clock, so a drifting host would
 * otherwise fail every send with `InvalidTimeStamp.Expired`.
 * @module
 */

/** A skew at least this large is corrected from any answer (the AWS SDK's threshold). */
const CLOCK_SKEW_THRESHOLD_MS = 5 * 60_000;
/**
 * After the service refused our timestamp, any skew at least this large is
 * corrected: the `Date` header has one-second resolution, so anything smaller
 * is noise.
 */
const REFUSED_SKEW_THRESHOLD_MS = 2_000;

/** One client's offset: corrected time is `Date.now() + offsetMs`. */
export class ClockOffset {
  #offsetMs = 0;

  /** Milliseconds to add to the local clock; 0 until a skew is seen. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** The local time corrected by the offset: what the next `Timestamp` is made from. */
  now(): Date {
    return new Date(Date.now() + this.#offsetMs);
  }

  /**
   * Learns from an answer's `Date` header. A header that is absent or not a
   * valid HTTP date changes nothing.
   *
   * @param refused - The service refused our timestamp: correct any skew
   *   beyond the header's resolution, not only a large one.
   * @returns Whether the offset changed.
   */
  observe(dateHeader: string | null, refused = false): boolean {
    if (dateHeader === null) return false;
    const serverMs = Date.parse(dateHeader);
    if (!Number.isFinite(serverMs)) return false;
    const local = Date.now();
    const skew = Math.abs(serverMs - (local + this.#offsetMs));
    if (skew < (refused ? REFUSED_SKEW_THRESHOLD_MS : CLOCK_SKEW_THRESHOLD_MS)) return false;
    this.#offsetMs = serverMs - local;
    return true;
  }
}
