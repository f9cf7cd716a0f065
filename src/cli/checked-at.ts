/**
 * Answer times: `checkedAt` of a row, and how long an answer counts.
 *
 * `checkedAt` of a row: when its answer was obtained, ISO 8601 to the
 * second in UTC (`2026-11-27T07:43:39Z`). The answer of a hash is only the
 * state "at the moment of the query" (the service's spec): every row says
 * which moment that was, a stored answer its original one.
 * @module
 */
let lastSecond = Number.NaN;
let lastText = '';

/** `checkedAt` of an answer obtained at `epochMs`. */
export function checkedAt(epochMs: number): string {
  const second = Math.floor(epochMs / 1_000);
  // Every row of a second has the same text: it is formatted once per second, not once per row.
  if (second !== lastSecond) {
    lastText = `${new Date(second * 1_000).toISOString().slice(0, 19)}Z`;
    lastSecond = second;
  }
  return lastText;
}

/**
 * How long a recorded answer counts when no `--max-age` is given (`scan
 * --inventory`, `lookup --resume`): half a day, so that a daily run (cron)
 * asks every hash again while a rerun the same day (after a stop, a second
 * look) reuses what was just answered.
 */
export const ANSWER_MAX_AGE_MS = 12 * 3_600_000;
/** The longest `--max-age` a recorded answer takes: beyond it a duration is a typo. */
export const ANSWER_MAX_AGE_LIMIT_MS = 3_650 * 86_400_000;
