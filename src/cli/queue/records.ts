import type { TextHashLine as HashLine } from '../hash-lines.js';
import { CLOCK_SKEW_MS, type LineResult, lineResult } from './queue-room.js';
import { openRecord } from './seal.js';

/*
 * A chunk's records, checked line by line: the seal (this run's key, this
 * chunk and line), the shape, the hash (the input's own on that line) and
 * the freshness (answered since the run started and within the maximum
 * age). A record that fails is never printed: it is asked again, and after
 * that an error row names why (review, never clean).
 */

/** Why a line's record cannot be printed, as an error row's code and message. */
export interface Refusal {
  readonly code: 'QUEUE_BAD_RECORD' | 'QUEUE_KEY_MISMATCH' | 'QUEUE_STALE_RECORD' | 'QUEUE_JOB_FAILED';
  readonly message: string;
}

export const REFUSALS = {
  bad: { code: 'QUEUE_BAD_RECORD', message: 'the recorded result does not verify or is for another hash' },
  otherKey: {
    code: 'QUEUE_KEY_MISMATCH',
    message:
      "the recorded result was sealed with another key: the worker's HASHSCAN_QUEUE_SECRET (else its API key) is not the producer's",
  },
  stale: {
    code: 'QUEUE_STALE_RECORD',
    message: 'the recorded result was answered before this run or is older than --max-age',
  },
  failed: { code: 'QUEUE_JOB_FAILED', message: 'the chunk job of this line failed for good on the workers' },
  refusedByWorker: {
    code: 'QUEUE_KEY_MISMATCH',
    message:
      "the workers refused this line's chunk: their HASHSCAN_QUEUE_SECRET (else their API key) is not the producer's",
  },
  lost: {
    code: 'QUEUE_JOB_FAILED',
    message: "this line's result was lost from Redis each time it was asked",
  },
} as const satisfies Record<string, Refusal>;

/** One line of a chunk: its printable result, or why its record is refused. */
export type Checked = { readonly result: LineResult } | { readonly refused: Refusal };

/** What a record must meet besides its seal. */
export interface Freshness {
  /** When the run started (its sealed record), ms since the epoch. */
  readonly startedAt: number;
  /** Oldest a record may be, in ms. */
  readonly maxAgeMs: number;
  readonly now: number;
}

/** Checks the stored record of each input line of `chunk`; a line without one (`null`) is refused as `missing`. */
export function checkRecords(
  key: Buffer,
  id: string,
  chunk: number,
  lines: readonly HashLine[],
  stored: readonly (string | null)[],
  fresh: Freshness,
  missing: Refusal = REFUSALS.failed,
): Checked[] {
  return lines.map((line, index) => {
    const value = stored[index];
    if (value === null || value === undefined) return { refused: missing };
    const opened = openRecord(key, id, chunk, line.line, value);
    if ('refused' in opened) return { refused: opened.refused === 'other-key' ? REFUSALS.otherKey : REFUSALS.bad };
    let parsed: ReturnType<typeof lineResult.safeParse> | undefined;
    try {
      parsed = lineResult.safeParse(JSON.parse(opened.json));
    } catch {
      parsed = undefined;
    }
    if (parsed?.success !== true || parsed.data.hash !== line.hash) return { refused: REFUSALS.bad };
    const { at } = parsed.data;
    if (at > fresh.now + CLOCK_SKEW_MS) return { refused: REFUSALS.bad };
    if (at < fresh.startedAt - CLOCK_SKEW_MS || at < fresh.now - fresh.maxAgeMs) return { refused: REFUSALS.stale };
    // A recorded name is never printed: the input's own is, where the row is written.
    const { name: _recorded, ...answer } = parsed.data;
    return { result: answer };
  });
}
