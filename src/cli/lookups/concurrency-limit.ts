/**
 * The lookups room: how many lookups the CLI keeps in flight. Pure
 * arithmetic over the samples it is given (a latency per lookup, and
 * whether the service pushed back); imports nothing.
 *
 * With `--concurrency N` the limit is pinned; by default it adapts, in the
 * manner of Netflix's concurrency-limits (Vegas, Gradient2), Envoy's
 * adaptive concurrency filter and TCP's congestion control:
 *
 * - slow start: from a small limit, double each window while answers keep
 *   their latency; after it, grow by a quarter per window while they do;
 * - latency: the window's median latency against the best recent one; past
 *   `TOLERANCE` times it two windows in a row, shrink in proportion (queues
 *   are building up);
 * - push-back (a 429 or 503 on the wire, a time-out): go a tenth below the
 *   limit the service's pace just before allows (its lookups a second times
 *   the best latency, Little's law), or cut by a quarter without a pace, and
 *   keep that as a ceiling; at the ceiling, grow only by probing slowly
 *   (exponentially slower after each probe that meets push-back), so that a
 *   rate-limited service is not hit every few seconds (the client itself
 *   waits out `Retry-After`).
 */

/** What the pipeline reads and feeds. */
export interface ConcurrencyLimit {
  /** Lookups allowed in flight now. */
  readonly current: number;
  readonly adaptive: boolean;
  /** One finished lookup: when it started and its latency (ms), and whether it met push-back (a time-out, a rate limit). */
  sample(startedAt: number, latencyMs: number, pushedBack: boolean): void;
  /** Push-back seen on the wire (a 429 or 503 answer), before any lookup ends. */
  pushBack(): void;
}

/** `--concurrency N`: always N. */
export class FixedLimit implements ConcurrencyLimit {
  readonly adaptive = false;
  constructor(readonly current: number) {}
  sample(): void {}
  pushBack(): void {}
}

/** A change of the adaptive limit, for `--verbose`. */
export interface LimitChange {
  readonly from: number;
  readonly to: number;
  readonly why: 'latency holds' | 'latency rising' | 'push-back' | 'probing';
  /** The window's median latency, and the best recent one, in ms. */
  readonly medianMs: number;
  readonly baseMs: number;
}

export interface AdaptiveLimitOptions {
  /** @defaultValue 16 */
  readonly initial?: number;
  /** @defaultValue 2 */
  readonly min?: number;
  /** @defaultValue 1024 */
  readonly max?: number;
  readonly onChange?: (change: LimitChange) => void;
  readonly now?: () => number;
}

/** How far the median latency may rise over the best recent one before the limit shrinks. */
const TOLERANCE = 1.5;
/** Growth per window while latency holds, after slow start and away from a ceiling. */
const GROWTH = 1.25;
/** Shortest window between two adjustments. */
const WINDOW_MS = 100;
/** Windows the best latency is remembered for (then a lasting rise becomes the new normal). */
const BASE_WINDOWS = 50;
/**
 * At the ceiling, one probe step (a twentieth of the ceiling, at least 1) this often at first, half
 * as often after each probe that met push-back (down to once a minute). A probe that holds does not
 * speed the next: a rate limiter's burst lets a probe hold for a while before it fails.
 */
const PROBE_EVERY_MS = 5000;
const PROBE_SLOWEST_MS = 60_000;
/** A push-back this soon after a probe is the probe's doing. */
const PROBE_BLAME_MS = 3000;
/**
 * After a push-back, windows are not judged for this long: lookups wait out the client's
 * `Retry-After` pause and arrive late together, and more 429s of the same burst arrive.
 */
const QUIET_MS = 1500;
/** Samples faster than this never went over a network (a cache hit, a lookup already in flight). */
const LOCAL_MS = 0.1;

/** The adaptive limit (see the file's comment). */
export class AdaptiveLimit implements ConcurrencyLimit {
  readonly adaptive = true;
  #limit: number;
  readonly #min: number;
  readonly #max: number;
  readonly #onChange: ((change: LimitChange) => void) | undefined;
  readonly #now: () => number;
  #samples: number[] = [];
  #pushedBack = false;
  /** Lookups finished a second, measured when push-back was first seen in this window. */
  #rateAtPushBack: number | undefined;
  /** Lookups finished per tenth of a second, over the last second (a ring). */
  readonly #finished = new Array<number>(10).fill(0);
  #tenth = 0;
  #firstFinished = Number.POSITIVE_INFINITY;
  #windowStart: number;
  #slowStart = true;
  #risingWindows = 0;
  #ceiling = Number.POSITIVE_INFINITY;
  #probeEvery = PROBE_EVERY_MS;
  #probedAt = Number.NEGATIVE_INFINITY;
  #pushedBackAt = Number.NEGATIVE_INFINITY;
  /** The last push-back or probe: samples of lookups started before it are left out. */
  #lastProbe = Number.NEGATIVE_INFINITY;
  readonly #bases: number[] = [];

  constructor(options: AdaptiveLimitOptions = {}) {
    this.#min = options.min ?? 2;
    this.#max = options.max ?? 1024;
    this.#limit = Math.min(this.#max, Math.max(this.#min, options.initial ?? 16));
    this.#onChange = options.onChange;
    this.#now = options.now ?? (() => performance.now());
    this.#windowStart = this.#now();
    this.#tenth = Math.floor(this.#windowStart / 100);
  }

  get current(): number {
    return this.#limit;
  }

  pushBack(): void {
    this.#notePushBack(this.#now());
  }

  #notePushBack(now: number): void {
    if (!this.#pushedBack) this.#rateAtPushBack = this.#recentRate(now);
    this.#pushedBack = true;
  }

  /** Moves the ring of finished lookups on to `now`. */
  #advance(now: number): void {
    const tenth = Math.floor(now / 100);
    for (let t = Math.max(this.#tenth + 1, tenth - 9); t <= tenth; t += 1) this.#finished[t % 10] = 0;
    this.#tenth = Math.max(this.#tenth, tenth);
  }

  /** Lookups finished a second over the last half second (the service's pace just before it pushed back). */
  #recentRate(now: number): number {
    this.#advance(now);
    let count = 0;
    for (let t = this.#tenth - 4; t <= this.#tenth; t += 1) count += this.#finished[((t % 10) + 10) % 10] as number;
    // Over the four tenths before this one and this one so far (in the first moments of a run, since
    // lookups began to end).
    const span = now - Math.max((this.#tenth - 4) * 100, this.#firstFinished);
    return span > 0 ? (count * 1000) / span : 0;
  }

  sample(startedAt: number, latencyMs: number, pushedBack: boolean): void {
    const finishedAt = this.#now();
    if (this.#firstFinished === Number.POSITIVE_INFINITY) this.#firstFinished = finishedAt;
    this.#advance(finishedAt);
    this.#finished[this.#tenth % 10] = (this.#finished[this.#tenth % 10] as number) + 1;
    if (pushedBack) this.#notePushBack(finishedAt);
    // A lookup under way at the last push-back waited out its pause: its latency says nothing of queues.
    if (latencyMs >= LOCAL_MS && startedAt > this.#lastProbe) this.#samples.push(latencyMs);
    const now = finishedAt;
    if (now - this.#windowStart < WINDOW_MS) return;
    if (!this.#pushedBack && this.#samples.length < Math.min(16, this.#limit)) return;
    this.#adjust(now);
  }

  #adjust(now: number): void {
    const pushedBack = this.#pushedBack;
    const rate = this.#rateAtPushBack;
    this.#rateAtPushBack = undefined;
    const samples = this.#samples.sort((a, b) => a - b);
    const median = samples.length === 0 ? Number.NaN : (samples[samples.length >> 1] as number);
    this.#samples = [];
    this.#pushedBack = false;
    this.#windowStart = now;
    if (!Number.isNaN(median)) {
      this.#bases.push(median);
      if (this.#bases.length > BASE_WINDOWS) this.#bases.shift();
    }
    const base = Math.min(...this.#bases);
    if (now - this.#pushedBackAt < QUIET_MS) return;
    if (pushedBack || Number.isNaN(median) || median <= TOLERANCE * base) this.#risingWindows = 0;
    const from = this.#limit;
    let to = from;
    let why: LimitChange['why'];
    if (pushedBack) {
      // The service's pace just before it pushed back, times the best latency, is the limit it takes
      // (Little's law): the new ceiling. Without a pace to go by, cut by a quarter (a tenth when the
      // push-back came just under the ceiling).
      const nearCeiling = from >= this.#ceiling * 0.85;
      // A tenth below it: right at a rate limit, any jitter is another 429 and another pause.
      const paced =
        rate !== undefined && rate > 0 && Number.isFinite(base) ? Math.floor((0.9 * rate * base) / 1000) : 0;
      to = paced >= this.#min ? Math.min(paced, from - 1) : Math.floor(from * (nearCeiling ? 0.9 : 0.75));
      this.#ceiling = Math.max(this.#min, to);
      this.#slowStart = false;
      this.#pushedBackAt = now;
      // A probe that met push-back: probe half as often.
      if (now - this.#probedAt < PROBE_BLAME_MS) this.#probeEvery = Math.min(this.#probeEvery * 2, PROBE_SLOWEST_MS);
      this.#lastProbe = now;
      why = 'push-back';
    } else if (Number.isNaN(median)) {
      return;
    } else if (median > TOLERANCE * base) {
      // One slow window is noise (new connections, a busy neighbour); two in a row are a queue.
      // In slow start (the first seconds: JIT, new connections) it takes four.
      this.#risingWindows += 1;
      if (this.#risingWindows < (this.#slowStart ? 4 : 2)) return;
      to = Math.floor(from * Math.max(0.75, (TOLERANCE * base) / median));
      this.#slowStart = false;
      why = 'latency rising';
    } else if (this.#slowStart && from * 2 < this.#ceiling) {
      to = from * 2;
      why = 'latency holds';
    } else if (from * GROWTH < this.#ceiling) {
      to = Math.ceil(from * GROWTH);
      why = 'latency holds';
    } else if (from < this.#ceiling) {
      to = this.#ceiling;
      why = 'latency holds';
    } else if (now - this.#lastProbe >= this.#probeEvery) {
      // At the ceiling: the estimate may be low, or the service's limit raised; find out slowly.
      to = from + Math.max(1, Math.ceil(this.#ceiling / 20));
      this.#ceiling = Math.max(this.#ceiling, to);
      this.#lastProbe = now;
      this.#probedAt = now;
      why = 'probing';
    } else {
      return;
    }
    this.#limit = Math.min(this.#max, Math.max(this.#min, to));
    if (this.#limit !== from) this.#onChange?.({ from, to: this.#limit, why, medianMs: median, baseMs: base });
  }
}
