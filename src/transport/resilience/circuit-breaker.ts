import { OutcomeWindow } from '../../util/outcome-window.js';

/*
 * One circuit breaker (one operation on one host). Reads the outcome of
 * whole logical calls, after their retries, never of single attempts.
 * Imports only its window.
 */

/** Where a circuit breaker stands: `closed` (calls go through), `open` (calls refused at once), `half-open` (a few probe calls let through). */
export type CircuitState = 'closed' | 'open' | 'half-open';

/** How a logical call ended, as the breaker reads it. */
export type CallOutcome = 'success' | 'failure' | 'neutral';

/** The breaker's numbers, every default filled in (see `resilience-options.ts`). */
export interface BreakerSettings {
  /** Share of failed calls in the window that opens the circuit. */
  readonly failureRatio: number;
  /** Calls the window must hold before the ratio is read. */
  readonly minimumCalls: number;
  /** Length of the sliding window, in ms. */
  readonly windowMs: number;
  /** Distinct calls, all started after the latest successful call started, whose failure opens the circuit at once. */
  readonly failureThreshold: number;
  /** Open time, in ms. */
  readonly cooldownMs: number;
  /** Longest open time once it has doubled after failed probes, in ms; equal to `cooldownMs` for a fixed open time. */
  readonly maxCooldownMs: number;
  /** Calls let through at once in half-open. */
  readonly halfOpenProbes: number;
}

/** What a call was admitted as: kept by the call, handed back with its outcome. */
export interface Admission {
  /** The breaker's period the call was admitted in; an outcome from an earlier period is ignored. */
  readonly period: number;
  readonly probe: boolean;
}

/** Share of the open time drawn at random, so replicas that opened together do not probe together. */
const OPEN_JITTER = 0.2;

/** Why the circuit changed state, for the log line and the event. */
export interface Transition {
  readonly state: CircuitState;
  /** What moved it, e.g. `10 calls failed in a row`, `11 of 21 calls failed within 30000 ms`, `probe failed`, `probes succeeded`, `cool-down over`. */
  readonly reason: string;
  /** How long the circuit stays open (open only), in ms. */
  readonly openMs?: number;
}

/**
 * Closed → open when, within `windowMs`, at least `minimumCalls` calls ended
 * and `failureRatio` of them failed in a transient way; or at once when
 * `failureThreshold` distinct calls that all started after the latest
 * successful call started have failed (a hard outage). Ordering by start, not
 * by end, matters: failing calls end late (after their retries), so under a
 * partial fault they end in bunches although successes keep starting and
 * ending between them. Open for `cooldownMs` (with jitter), then half-open:
 * up to `halfOpenProbes` calls go through; a majority of successes closes it,
 * a majority of failures opens it again. The open time is fixed unless
 * `maxCooldownMs` is above `cooldownMs` (opt-in back-off): then it doubles
 * after each failed half-open, up to `maxCooldownMs`, and starts over once
 * it closes. A long fixed open time is what turns bursts into an outage: a
 * breaker open for 30 s after a 2 s burst refuses 28 s of good answers, and
 * probes landing in the next burst made it longer still.
 */
export class CircuitBreaker {
  readonly #settings: BreakerSettings;
  readonly #window: OutcomeWindow;
  readonly #onChange: (transition: Transition) => void;
  readonly #random: () => number;
  #state: CircuitState = 'closed';
  #period = 0;
  /** Start times of the failed calls that started after the latest success started (at most `failureThreshold`). */
  readonly #sinceSuccess: number[] = [];
  #lastSuccessStart = Number.NEGATIVE_INFINITY;
  #openUntil = 0;
  #reopens = 0;
  #halfOpenAt = 0;
  #probesOut = 0;
  #probeSuccesses = 0;
  #probeFailures = 0;
  /** The admission of every call of the current closed period (one object, not one per call). */
  #closed: Admission = { period: 0, probe: false };

  constructor(settings: BreakerSettings, onChange: (transition: Transition) => void, random = Math.random) {
    this.#settings = settings;
    this.#window = new OutcomeWindow(settings.windowMs);
    this.#onChange = onChange;
    this.#random = random;
  }

  /** The state now (an open circuit whose open time is over reads `half-open`). */
  get state(): CircuitState {
    if (this.#state === 'open' && performance.now() >= this.#openUntil) return 'half-open';
    return this.#state;
  }

  /** Milliseconds until an open circuit lets probes through (0 when it already would). */
  retryInMs(): number {
    return this.#state === 'open' ? Math.max(0, Math.ceil(this.#openUntil - performance.now())) : 0;
  }

  /** Whether a new call may start now, and as what; `undefined` when it is refused. */
  admit(): Admission | undefined {
    if (this.#state === 'closed') return this.#closed;
    const now = performance.now();
    if (this.#state === 'open') {
      if (now < this.#openUntil) return undefined;
      this.#enter('half-open', { state: 'half-open', reason: 'cool-down over' }, now);
    } else if (now - this.#halfOpenAt >= this.#settings.cooldownMs) {
      // Probes that never reported hold their slots for one cool-down at most.
      this.#newPeriod(now);
    }
    if (this.#probesOut >= this.#settings.halfOpenProbes) return undefined;
    this.#probesOut += 1;
    return { period: this.#period, probe: true };
  }

  /** Whether a call admitted as `admission` may still make another attempt (a retry). */
  mayRetry(admission: Admission): boolean {
    return admission.period === this.#period && (this.#state === 'closed' || admission.probe);
  }

  /**
   * The outcome of a call admitted as `admission` at `startedAt`
   * (`performance.now()`); `subject` (a hash) counts once per window as a failure.
   */
  settle(admission: Admission, outcome: CallOutcome, subject: string | undefined, startedAt: number): void {
    if (admission.period !== this.#period) return;
    const now = performance.now();
    if (admission.probe) {
      this.#probesOut -= 1;
      if (outcome === 'neutral') return;
      const majority = Math.floor(this.#settings.halfOpenProbes / 2) + 1;
      if (outcome === 'success' && ++this.#probeSuccesses >= majority) {
        this.#reopens = 0;
        this.#enter('closed', { state: 'closed', reason: 'probes succeeded' }, now);
      } else if (outcome === 'failure' && ++this.#probeFailures > this.#settings.halfOpenProbes - majority) {
        this.#reopens += 1;
        this.#open('probe failed', now);
      }
      return;
    }
    if (outcome === 'neutral') return;
    const counted = this.#window.record(outcome === 'failure', subject, now);
    const since = this.#sinceSuccess;
    if (outcome === 'success') {
      if (startedAt > this.#lastSuccessStart) {
        this.#lastSuccessStart = startedAt;
        // In place (no array per call): failures that started before this success no longer count.
        let kept = 0;
        for (const start of since) if (start >= startedAt) since[kept++] = start;
        since.length = kept;
      }
      return;
    }
    if (!counted) return;
    if (startedAt >= this.#lastSuccessStart) {
      since.push(startedAt);
      if (since.length >= this.#settings.failureThreshold) {
        this.#open(`${since.length} calls failed, none succeeded since they started`, now);
        return;
      }
    }
    const { calls, failures } = this.#window.totals(now);
    if (calls >= this.#settings.minimumCalls && failures >= calls * this.#settings.failureRatio) {
      this.#open(`${failures} of ${calls} calls failed within ${this.#settings.windowMs} ms`, now);
    }
  }

  #open(reason: string, now: number): void {
    const { cooldownMs, maxCooldownMs } = this.#settings;
    const full = Math.min(maxCooldownMs, cooldownMs * 2 ** Math.min(this.#reopens, 30));
    const openMs = Math.max(1, Math.round(full * (1 - OPEN_JITTER * this.#random())));
    this.#openUntil = now + openMs;
    this.#enter('open', { state: 'open', reason, openMs }, now);
  }

  #enter(state: CircuitState, transition: Transition, now: number): void {
    this.#state = state;
    this.#newPeriod(now);
    if (state === 'closed') {
      this.#sinceSuccess.length = 0;
      this.#window.reset();
      this.#closed = { period: this.#period, probe: false };
    }
    this.#onChange(transition);
  }

  /** Outcomes of calls admitted before now no longer count. */
  #newPeriod(now: number): void {
    this.#period += 1;
    this.#probesOut = 0;
    this.#probeSuccesses = 0;
    this.#probeFailures = 0;
    this.#halfOpenAt = now;
  }
}
