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
 * - push-back (429, a `Retry-After` pause, time-outs, retries): cut by a
 *   quarter at once and remember the limit that failed as a ceiling; near
 *   the ceiling, grow only by probing slowly, so that a rate-limited service
 *   is not hit every few seconds (the client itself waits out `Retry-After`).
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
  /** Push-back the client saw on its own (retries started, time waited for `Retry-After`): any growth is push-back. */
  readonly pushBack?: () => number;
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
/** Near a ceiling, one probe step (a twentieth of the ceiling, at least 1) this often. */
const PROBE_EVERY_MS = 5000;
/** Samples faster than this never went over a network (a cache hit, a lookup already in flight). */
const LOCAL_MS = 0.1;

/** The adaptive limit (see the file's comment). */
export class AdaptiveLimit implements ConcurrencyLimit {
  readonly adaptive = true;
  #limit: number;
  readonly #min: number;
  readonly #max: number;
  readonly #pushBack: () => number;
  readonly #onChange: ((change: LimitChange) => void) | undefined;
  readonly #now: () => number;
  #samples: number[] = [];
  #pushedBack = false;
  #lastPushBack: number;
  #windowStart: number;
  #slowStart = true;
  #risingWindows = 0;
  #ceiling = Number.POSITIVE_INFINITY;
  #probeEvery = PROBE_EVERY_MS;
  /** The last push-back or probe: samples of lookups started before it are left out. */
  #lastProbe = Number.NEGATIVE_INFINITY;
  readonly #bases: number[] = [];

  constructor(options: AdaptiveLimitOptions = {}) {
    this.#min = options.min ?? 2;
    this.#max = options.max ?? 1024;
    this.#limit = Math.min(this.#max, Math.max(this.#min, options.initial ?? 16));
    this.#pushBack = options.pushBack ?? (() => 0);
    this.#onChange = options.onChange;
    this.#now = options.now ?? (() => performance.now());
    this.#lastPushBack = this.#pushBack();
    this.#windowStart = this.#now();
  }

  get current(): number {
    return this.#limit;
  }

  pushBack(): void {
    this.#pushedBack = true;
  }

  sample(startedAt: number, latencyMs: number, pushedBack: boolean): void {
    if (pushedBack) this.#pushedBack = true;
    // A lookup under way at the last push-back waited out its pause: its latency says nothing of queues.
    if (latencyMs >= LOCAL_MS && startedAt > this.#lastProbe) this.#samples.push(latencyMs);
    const now = this.#now();
    if (now - this.#windowStart < WINDOW_MS) return;
    if (!this.#pushedBack && this.#samples.length < Math.min(16, this.#limit)) return;
    this.#adjust(now);
  }

  #adjust(now: number): void {
    const pushBack = this.#pushBack();
    const pushedBack = this.#pushedBack || pushBack > this.#lastPushBack;
    this.#lastPushBack = pushBack;
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
    if (pushedBack || Number.isNaN(median) || median <= TOLERANCE * base) this.#risingWindows = 0;
    const from = this.#limit;
    let to = from;
    let why: LimitChange['why'];
    if (pushedBack) {
      // The limit after the cut is the new ceiling (a bucket's burst lets the failing one run a while
      // above the service's real limit); a second push-back just under it cuts less.
      const nearCeiling = from >= this.#ceiling * 0.85;
      to = Math.floor(from * (nearCeiling ? 0.9 : 0.75));
      this.#ceiling = Math.max(this.#min, to);
      this.#slowStart = false;
      // A probe that met push-back: probe half as often (up to once a minute).
      if (now - this.#lastProbe < this.#probeEvery / 2) this.#probeEvery = Math.min(this.#probeEvery * 2, 60_000);
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
    } else if (from * GROWTH < this.#ceiling * 0.95) {
      to = Math.ceil(from * GROWTH);
      why = 'latency holds';
    } else if (from < Math.floor(this.#ceiling * 0.95)) {
      to = Math.floor(this.#ceiling * 0.95);
      why = 'latency holds';
    } else if (now - this.#lastProbe >= this.#probeEvery) {
      // At the ceiling: the service's limit may have been raised; find out slowly.
      to = from + Math.max(1, Math.round(this.#ceiling / 20));
      this.#ceiling = Math.max(this.#ceiling, to);
      this.#lastProbe = now;
      why = 'probing';
    } else {
      return;
    }
    this.#limit = Math.min(this.#max, Math.max(this.#min, to));
    if (this.#limit !== from) this.#onChange?.({ from, to: this.#limit, why, medianMs: median, baseMs: base });
  }
}
