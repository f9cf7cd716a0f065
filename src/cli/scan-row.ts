import { type DecisionPolicy, decide, type ScanOutcome } from '../index.js';
import type { Row } from './output/index.js';

/** The cells every lookup result shares: verdict, decision, and what explains them. */
export function outcomeCells(outcome: ScanOutcome, policy: DecisionPolicy): Row {
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
