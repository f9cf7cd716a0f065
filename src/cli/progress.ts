/** Counters a command updates as it goes; the display reads them. */
export interface ProgressCounters {
  /** Files hashed (scan) so far. */
  hashed: number;
  /** Lookups settled so far, answered or failed. */
  looked: number;
  /** Failures so far: unreadable files, failed lookups, invalid lines. */
  errors: number;
  /** Inputs known in all (a finished walk), for the ETA; `undefined` while unknown. */
  total: number | undefined;
  /** Share of the input consumed, 0 to 1 (bytes of an input file), when `total` is unknown. */
  fraction: number | undefined;
  /** Lookups allowed in flight (pinned, or as the adaptive limit stands now). */
  limit?: number;
  /** Lookups started a second at most, once the service has pushed back (adaptive only). */
  pace?: number | undefined;
}

const REDRAW_MS = 250;
const CLEAR_LINE = '\r\u001b[2K';

/**
 * One live status line on a terminal's stderr: files hashed, lookups done,
 * rate, ETA and errors, redrawn a few times a second and erased before any
 * result line and at the end. Nothing at all is drawn when stderr is not a
 * terminal or with `--quiet`, so logs and pipes stay clean.
 */
export class Progress {
  readonly counters: ProgressCounters = { hashed: 0, looked: 0, errors: 0, total: undefined, fraction: undefined };
  readonly #err: NodeJS.WritableStream & { readonly columns?: number };
  readonly #showHashed: boolean;
  readonly #started = performance.now();
  #timer: NodeJS.Timeout | undefined;
  #shown = false;

  constructor(err: NodeJS.WritableStream & { readonly columns?: number }, enabled: boolean, showHashed: boolean) {
    this.#err = err;
    this.#showHashed = showHashed;
    if (enabled) {
      this.#timer = setInterval(() => this.#draw(), REDRAW_MS);
      this.#timer.unref();
    }
  }

  /** Erases the line (before a result is printed); the next tick draws it again. */
  clear(): void {
    if (!this.#shown) return;
    this.#err.write(CLEAR_LINE);
    this.#shown = false;
  }

  /** Stops redrawing and erases the line. */
  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.clear();
  }

  /** The status text, for tests and the display. */
  text(now = performance.now()): string {
    const { hashed, looked, errors, total, fraction } = this.counters;
    const seconds = Math.max((now - this.#started) / 1000, 0.001);
    const done = looked;
    const rate = done / seconds;
    const parts = [];
    if (this.#showHashed) parts.push(`${hashed} hashed`);
    parts.push(`${looked}${total === undefined ? '' : `/${total}`} looked up`, `${rate.toFixed(rate < 10 ? 1 : 0)}/s`);
    const share = total !== undefined && total > 0 ? done / total : fraction;
    if (share !== undefined && share > 0 && share < 1) parts.push(`ETA ${duration((seconds * (1 - share)) / share)}`);
    parts.push(`${errors} error${errors === 1 ? '' : 's'}`);
    if (this.counters.limit !== undefined) parts.push(`${this.counters.limit} in flight max`);
    if (this.counters.pace !== undefined) parts.push(`paced ${Math.round(this.counters.pace)}/s`);
    return parts.join(' · ');
  }

  #draw(): void {
    // A pseudo-terminal without a size reports 0 columns.
    const columns = this.#err.columns !== undefined && this.#err.columns > 0 ? this.#err.columns : 80;
    const width = Math.max(columns - 1, 20);
    this.#err.write(`${CLEAR_LINE}${this.text().slice(0, width)}`);
    this.#shown = true;
  }
}

/** A span of time for people: `42s`, `5m07s`, `3h05m`, `2d04h`. */
export function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${`${s % 60}`.padStart(2, '0')}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h${`${Math.floor((s % 3600) / 60)}`.padStart(2, '0')}m`;
  return `${Math.floor(s / 86_400)}d${`${Math.floor((s % 86_400) / 3600)}`.padStart(2, '0')}h`;
}
