import type { ScanOutcome } from './scan-result.js';

/** What to do with a file. */
export type Decision = 'block' | 'allow' | 'review';

/**
 * How `decide` treats a lookup that gave no answer.
 *
 * @example
 * ```ts
 * decide(outcome, { onError: 'block' }) // strict: unknown files are refused
 * ```
 */
export interface DecisionPolicy {
  /** Decision for an `error` outcome (time-out, abnormal response, …). @defaultValue 'review' */
  readonly onError?: 'review' | 'block' | undefined;
}

/**
 * The caller flow of the spec: a flagged file is blocked, an unflagged one
 * continues (with your other checks still in place), and a lookup without a
 * trustworthy answer goes to review, or is blocked if the policy says so.
 * It never allows on an error.
 *
 * @example
 * ```ts
 * const outcome = await client.scan(sha256).catch((error) => ({ verdict: 'error', hash: sha256, error }))
 * if (decide(outcome) !== 'allow') quarantine(file)
 * ```
 */
export function decide(outcome: Pick<ScanOutcome, 'verdict'>, policy: DecisionPolicy = {}): Decision {
  switch (outcome.verdict) {
    case 'malicious':
      return 'block';
    case 'not_detected':
      return 'allow';
    default:
      return policy.onError === 'block' ? 'block' : 'review';
  }
}
