/**
 * The lookups room: the pace the CLI keeps once a service has pushed back
 * (lookups started a second). Pure arithmetic over the times it is given;
 * imports nothing.
 *
 * A concurrency limit sets a rate only through latency (Little's law), and
 * a rate-limited service counts requests a second: at 20 ms, 20 in flight
 * are a thousand a second and 21 are a twentieth more, and at a hundred a
 * second the whole choice is between one and two in flight. Each 429 costs
 * a whole `Retry-After` pause of every lookup, so after push-back the CLI
 * paces its starts to what the service admitted, the way smithy's adaptive
 * retry mode paces sends with a client-side token bucket:
 *
 * - the measure: lookups answered a second, since the last pause ended
 *   (a measure shorter than `MIN_MEASURE_MS` says too little);
 * - the first push-back (unpaced, at the end of slow start): what the
 *   service answered over the last `RECENT_TENTHS` tenths of a second, or
 *   half the send rate without a measure. High by the service's burst if
 *   anything: the next push-back corrects it;
 * - a later push-back (paced): `NEAR` times the lower of the pace kept and
 *   the measure over the last second, with `ASSUMED_BURST_MS` of the
 *   service's pace taken out of a short measure, or half the pace without one;
 * - probing: a twentieth more every `PROBE_EVERY_MS`; a probe that meets
 *   push-back before the next one is due goes back to the pace it left,
 *   and the next probe waits twice as long.
 */

/** The service's answers a second, over the last second since the last pause (a ring of tenths). */
export class RateMeter {
  readonly #tenths = new Array<number>(10).fill(0);
  #tenth = Number.NEGATIVE_INFINITY;
  #since = Number.POSITIVE_INFINITY;

  /** One lookup answered at `now`. */
  finished(now: number): void {
    this.#advance(now);
    if (this.#since === Number.POSITIVE_INFINITY) this.#since = now;
    const slot = this.#tenth % 10;
    this.#tenths[slot] = (this.#tenths[slot] as number) + 1;
  }

  /** Starts a new measure with the next answer (after a pause: what came before says nothing of the pace). */
  restart(): void {
    this.#since = Number.POSITIVE_INFINITY;
    this.#tenths.fill(0);
  }

  /** Answers a second over the last `tenths` tenths of a second (this one so far included), and over how long (ms). */
  measure(now: number, tenths = 10): { readonly perSecond: number; readonly spanMs: number } {
    this.#advance(now);
    let count = 0;
    for (let t = this.#tenth - tenths + 1; t <= this.#tenth; t += 1) count += this.#tenths[t % 10] as number;
    const spanMs = Math.max(0, now - Math.max((this.#tenth - tenths + 1) * 100, this.#since));
    return { perSecond: spanMs > 0 ? (count * 1000) / spanMs : 0, spanMs };
  }

  #advance(now: number): void {
    const tenth = Math.floor(now / 100);
    if (tenth <= this.#tenth) return;
    for (let t = Math.max(this.#tenth + 1, tenth - 9); t <= tenth; t += 1) this.#tenths[t % 10] = 0;
    this.#tenth = tenth;
  }
}

/** Shortest measure a push-back is paced on. */
const MIN_MEASURE_MS = 100;
/** Tenths of a second an unpaced push-back is measured over: the service's pace at the end of slow start. */
export const RECENT_TENTHS = 2;

/** What the service answered a second when it pushed back: over the last second, and most recently. */
export interface PaceMeasures {
  readonly second: { readonly perSecond: number; readonly spanMs: number };
  readonly recent: { readonly perSecond: number; readonly spanMs: number };
}
/** First probe this long after push-back; twice as long after each probe that met push-back. */
const PROBE_EVERY_MS = 10_000;
const PROBE_SLOWEST_MS = 120_000;
/** How close under the service's measured pace the CLI keeps. */
const NEAR = 0.95;
/** The burst a service's token bucket lets through at once, as time at its pace (taken out of a short measure). */
const ASSUMED_BURST_MS = 100;
/** Starts that may go out at once, in time at the pace: enough to ride timer jitter, too few to be a burst. */
const BUCKET_MS = 20;

/** Why the pace changed, for `--verbose`. */
export type PaceChange = 'push-back' | 'probing' | 'probe met push-back';

/** The pace of starts: none until push-back, then a token bucket at the pace (see the file's comment). */
export class Pace {
  #perSecond: number | undefined;
  #tokens = 0;
  #filledAt = 0;
  #probeEvery = PROBE_EVERY_MS;
  #probedAt = Number.NEGATIVE_INFINITY;
  #changedAt = Number.NEGATIVE_INFINITY;
  #beforeProbe: number | undefined;

  /** Lookups a second allowed to start; `undefined` while the service has not pushed back. */
  get perSecond(): number | undefined {
    return this.#perSecond;
  }

  /** Milliseconds until the next start may go; 0 takes it now. */
  delayMs(now: number): number {
    const pace = this.#perSecond;
    if (pace === undefined) return 0;
    const capacity = Math.max(1, (pace * BUCKET_MS) / 1000);
    this.#tokens = Math.min(capacity, this.#tokens + ((now - this.#filledAt) * pace) / 1000);
    this.#filledAt = now;
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil(((1 - this.#tokens) * 1000) / pace));
  }

  /**
   * The service pushed back. `measures` is what it answered just before
   * (`undefined`: nothing measured); `sendRate` is what the CLI was sending
   * without a pace (its limit over its latency).
   */
  pushBack(now: number, measures: PaceMeasures | undefined, sendRate: number): PaceChange {
    this.#changedAt = now;
    if (this.#beforeProbe !== undefined && now - this.#probedAt < this.#probeEvery) {
      this.#set(this.#beforeProbe, now);
      this.#beforeProbe = undefined;
      this.#probeEvery = Math.min(this.#probeEvery * 2, PROBE_SLOWEST_MS);
      return 'probe met push-back';
    }
    this.#beforeProbe = undefined;
    const kept = this.#perSecond;
    if (kept === undefined) {
      // Unpaced (slow start), the CLI sent less than it could most of the last second: what the service
      // answered most recently is the measure. High by the service's burst if anything: the next
      // push-back, paced, corrects it.
      const recent = measures?.recent;
      this.#set(recent !== undefined && recent.spanMs >= MIN_MEASURE_MS ? recent.perSecond : sendRate / 2, now);
      return 'push-back';
    }
    // Paced, everything sent was answered until the service's bucket ran dry: its burst is taken out
    // (ASSUMED_BURST_MS of its pace, over the time the measure lasted).
    const second = measures?.second;
    const measured =
      second !== undefined && second.spanMs >= MIN_MEASURE_MS
        ? second.perSecond / (1 + ASSUMED_BURST_MS / second.spanMs)
        : kept / 2;
    this.#set(NEAR * Math.min(kept, measured), now);
    return 'push-back';
  }

  /** Probes a twentieth higher when one is due; `true` when it did. */
  probe(now: number): boolean {
    const pace = this.#perSecond;
    if (pace === undefined || now - Math.max(this.#changedAt, this.#probedAt) < this.#probeEvery) return false;
    this.#beforeProbe = pace;
    this.#probedAt = now;
    this.#set(pace + Math.max(1, pace / 20), now);
    return true;
  }

  #set(perSecond: number, now: number): void {
    this.#perSecond = Math.max(1, perSecond);
    this.#tokens = Math.min(this.#tokens, 1);
    this.#filledAt = now;
  }
}
