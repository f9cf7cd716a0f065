import { type DecisionPolicy, decide } from '../index.js';
import { checkedAt } from './checked-at.js';
import type { Row } from './output/index.js';

/**
 * What the CLI reports of a lookup's outcome: a `ScanOutcome` is one, and so
 * is the plain copy a lookup thread sends back (`--workers`).
 */
export type OutcomeView =
  | {
      readonly verdict: 'malicious';
      readonly source: string | undefined;
      /** The service's observation times (a `MaliciousResult`'s `data`), as sent. */
      readonly data?: { readonly first_seen?: string | undefined; readonly last_seen?: string | undefined } | undefined;
    }
  | { readonly verdict: 'not_detected' }
  | { readonly verdict: 'error'; readonly error: { readonly code: string; readonly message: string } };

/**
 * The cells every lookup result shares: verdict, decision, what explains
 * them, when the answer was obtained (`at`, ms since the epoch; a stored
 * answer passes its own) and, for a hit, when the service saw the file.
 */
export function outcomeCells(outcome: OutcomeView, policy: DecisionPolicy, at = Date.now()): Row {
  const decision = decide(outcome, policy);
  switch (outcome.verdict) {
    case 'malicious':
      return {
        verdict: 'malicious',
        decision,
        source: outcome.source,
        detail: outcome.source ?? 'flagged',
        checkedAt: checkedAt(at),
        firstSeen: outcome.data?.first_seen,
        lastSeen: outcome.data?.last_seen,
      };
    case 'not_detected':
      return { verdict: 'not_detected', decision, checkedAt: checkedAt(at) };
    default:
      return errorCells(outcome.error, decision, at);
  }
}

/** Cells of an input without a trustworthy answer; `checkedAt` is when that was found. */
export function errorCells(
  error: { readonly code: string; readonly message: string },
  decision: string,
  at = Date.now(),
): Row {
  return {
    verdict: 'error',
    decision,
    error: error.code,
    detail: `${error.code}: ${error.message}`,
    checkedAt: checkedAt(at),
  };
}

/** The fields every row gives after its name and explanation, in this order in every format. */
export const TIME_COLUMNS = [
  { key: 'checkedAt', width: 0 },
  { key: 'firstSeen', width: 0 },
  { key: 'lastSeen', width: 0 },
] as const;
