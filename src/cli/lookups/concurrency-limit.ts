/**
 * The lookups room: how many lookups the CLI keeps in flight, and how fast
 * it starts them. Pure arithmetic over the samples it is given (a latency
 * per lookup, and whether the service pushed back); imports only its
 * sibling `pace.ts`.
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
 * - push-back (a 429 or 503 on the wire, a time-out): the service counts
 *   requests a second, so from then on starts are paced (`pace.ts`) to just
 *   under what it answered before; the concurrency limit stops growing once
 *   it is ample for that pace;
 * - held feeding: while fewer lookups are in flight than the limit allows
 *   and the feed has not asked to start one for `HELD_MS` (the order window
 *   is full behind a slow answer, stdout is behind), what the service answers
 *   is not its pace: a push-back then sets no pace (the client's own gate
 *   still waits out a `Retry-After`), and the measure starts over when
 *   feeding resumes. A slow answer holds output, not the pace.
 */
import { Pace, type PaceChange, type PaceMeasures, RateMeter, RECENT_TENTHS } from './pace.js';

/** What the pipeline reads and feeds. */
export interface ConcurrencyLimit {
  /** Lookups allowed in flight now. */
  readonly current: number;
  readonly adaptive: boolean;
  /** Milliseconds until the next lookup may start (0: it may start now, and counts as started). */
  delayMs(): number;
  /** One finished lookup: when it started and its latency (ms), and whether it met push-back (a time-out, a rate limit). */
  sample(startedAt: number, latencyMs: number, pushedBack: boolean): void;
  /** Push-back seen on the wire (a 429 or 503 answer), before any lookup ends. */
  pushBack(): void;
  /** The client's pause for `Retry-After` is over: what the service answers from now on is its pace. */
  resumed(): void;
}

/** `--concurrency N`: always N, never paced. */
export class FixedLimit implements ConcurrencyLimit {
  readonly adaptive = false;
  constructor(readonly current: number) {}
  delayMs(): number {
    return 0;
  }
  sample(): void {}
  pushBack(): void {}
  resumed(): void {}
}

/** A change of the adaptive limit or pace, for `--verbose`. */
export interface LimitChange {
  readonly from: number;
  readonly to: number;
  readonly why: 'latency holds' | 'latency rising' | PaceChange;
  /** Lookups started a second at most, once the service has pushed back. */
  readonly pace: number | undefined;
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
/** Growth per window while latency holds, after slow start. */
const GROWTH = 1.25;
/** Shortest window between two adjustments. */
const WINDOW_MS = 100;
/** Windows the best latency is remembered for (then a lasting rise becomes the new normal). */
const BASE_WINDOWS = 50;
/** Once paced, in flight beyond this many times pace × latency would never fill: the limit stops growing. */
const AMPLE = 2;
/**
 * After a push-back, windows are not judged for this long: lookups wait out the client's
 * `Retry-After` pause and arrive late together, and more 429s of the same burst arrive.
 */
const QUIET_MS = 1500;
/** Samples faster than this never went over a network (a cache hit, a lookup already in flight). */
const LOCAL_MS = 0.1;
/** Below the limit with no start asked for this long: the feed is held by something else than the service. */
const HELD_MS = 100;

/** The adaptive limit (see the file's comment). */
export class AdaptiveLimit implements ConcurrencyLimit {
  readonly adaptive = true;
  #limit: number;
  readonly #min: number;
  readonly #max: number;
  readonly #onChange: ((change: LimitChange) => void) | undefined;
  readonly #now: () => number;
  readonly #meter = new RateMeter();
  readonly #pace = new Pace();
  #samples: number[] = [];
  #pushedBack = false;
  /** What the service answered a second when push-back was first seen in this window. */
  #measureAtPushBack: PaceMeasures | undefined;
  #windowStart: number;
  #slowStart = true;
  #risingWindows = 0;
  #pushedBackAt = Number.NEGATIVE_INFINITY;
  /** Samples of lookups started before this (the last push-back) are left out. */
  #quietSince = Number.NEGATIVE_INFINITY;
  readonly #bases: number[] = [];
  /** Lookups started (`delayMs` gave 0) and not sampled yet. */
  #inFlight = 0;
  /** Until when the feed is known to want a start: its last ask, or the end of the wait the pace gave it. */
  #wantedUntil = Number.NEGATIVE_INFINITY;

  constructor(options: AdaptiveLimitOptions = {}) {
    this.#min = options.min ?? 2;
    this.#max = options.max ?? 1024;
    this.#limit = Math.min(this.#max, Math.max(this.#min, options.initial ?? 16));
    this.#onChange = options.onChange;
    this.#now = options.now ?? (() => performance.now());
    this.#windowStart = this.#now();
  }

  get current(): number {
    return this.#limit;
  }

  delayMs(): number {
    const now = this.#now();
    // Feeding resumes after a hold: the answers during it were few because nothing was sent.
    if (this.#held(now)) this.#meter.restart();
    const delay = this.#pace.delayMs(now);
    this.#wantedUntil = now + delay;
    if (delay === 0) this.#inFlight += 1;
    return delay;
  }

  pushBack(): void {
    this.#notePushBack(this.#now());
  }

  /** Whether feeding is held by something else than this limit and its pace (see the file's comment). */
  #held(now: number): boolean {
    return this.#inFlight < this.#limit && now - this.#wantedUntil > HELD_MS;
  }

  resumed(): void {
    this.#meter.restart();
  }

  #notePushBack(now: number): void {
    if (this.#held(now)) return;
    if (!this.#pushedBack) {
      this.#measureAtPushBack = { second: this.#meter.measure(now), recent: this.#meter.measure(now, RECENT_TENTHS) };
    }
    this.#pushedBack = true;
  }

  sample(startedAt: number, latencyMs: number, pushedBack: boolean): void {
    const now = this.#now();
    this.#meter.finished(now);
    if (pushedBack) this.#notePushBack(now);
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    // A lookup under way at the last push-back waited out its pause: its latency says nothing of queues.
    if (latencyMs >= LOCAL_MS && startedAt > this.#quietSince) this.#samples.push(latencyMs);
    if (now - this.#windowStart < WINDOW_MS) return;
    if (!this.#pushedBack && this.#samples.length < Math.min(16, this.#limit)) return;
    this.#adjust(now);
  }

  #adjust(now: number): void {
    const pushedBack = this.#pushedBack;
    const measure = this.#measureAtPushBack;
    this.#measureAtPushBack = undefined;
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
    const from = this.#limit;
    if (pushedBack) {
      const sendRate = Number.isFinite(base) ? (from * 1000) / base : from;
      const why = this.#pace.pushBack(now, measure, sendRate);
      this.#slowStart = false;
      this.#pushedBackAt = now;
      this.#quietSince = now;
      this.#risingWindows = 0;
      this.#set(Math.min(from, this.#ample(base)), why, median, base);
      return;
    }
    if (now - this.#pushedBackAt < QUIET_MS) return;
    if (Number.isNaN(median)) return;
    if (median > TOLERANCE * base) {
      // One slow window is noise (new connections, a busy neighbour); two in a row are a queue.
      // In slow start (the first seconds: JIT, new connections) it takes four.
      this.#risingWindows += 1;
      if (this.#risingWindows < (this.#slowStart ? 4 : 2)) return;
      this.#slowStart = false;
      this.#set(Math.floor(from * Math.max(0.75, (TOLERANCE * base) / median)), 'latency rising', median, base);
      return;
    }
    this.#risingWindows = 0;
    if (this.#pace.probe(now)) {
      this.#set(from, 'probing', median, base);
      return;
    }
    const grown = this.#slowStart ? from * 2 : Math.ceil(from * GROWTH);
    this.#set(Math.min(grown, Math.max(from, this.#ample(base))), 'latency holds', median, base);
  }

  /** Once paced: the most in flight the pace can fill (unbounded before). */
  #ample(base: number): number {
    const pace = this.#pace.perSecond;
    if (pace === undefined || !Number.isFinite(base)) return Number.POSITIVE_INFINITY;
    return Math.ceil((AMPLE * pace * base) / 1000) + 1;
  }

  #set(to: number, why: LimitChange['why'], medianMs: number, baseMs: number): void {
    const from = this.#limit;
    this.#limit = Math.min(this.#max, Math.max(this.#min, to));
    const paceChanged = why !== 'latency holds' && why !== 'latency rising';
    if (this.#limit !== from || paceChanged) {
      this.#onChange?.({ from, to: this.#limit, why, pace: this.#pace.perSecond, medianMs, baseMs });
    }
  }
}
