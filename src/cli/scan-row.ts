import { type DecisionPolicy, decide } from '../index.js';
import type { Row } from './output/index.js';

/**
 * What the CLI reports of a lookup's outcome: a `ScanOutcome` is one, and so
 * is the plain copy a lookup thread sends back (`--workers`).
 */
export type OutcomeView =
  | { readonly verdict: 'malicious'; readonly source: string | undefined }
  | { readonly verdict: 'not_detected' }
  | { readonly verdict: 'error'; readonly error: { readonly code: string; readonly message: string } };

/** The cells every lookup result shares: verdict, decision, and what explains them. */
export function outcomeCells(outcome: OutcomeView, policy: DecisionPolicy): Row {
  const decision = decide(outcome, policy);
  switch (outcome.verdict) {
    case 'malicious':
      return { verdict: 'malicious', decision, source: outcome.source, detail: outcome.source ?? 'flagged' };
    case 'not_detected':
      return { verdict: 'not_detected', decision };
    default:
      return errorCells(outcome.error, decision);
  }
}

/** Cells of an input without a trustworthy answer. */
export function errorCells(error: { readonly code: string; readonly message: string }, decision: string): Row {
  return { verdict: 'error', decision, error: error.code, detail: `${error.code}: ${error.message}` };
}
