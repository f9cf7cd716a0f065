import type { HashScanErrorCode } from '../errors/hashscan-error.js';
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

/**
 * Why {@link decideWithReason} decided what it did: `MALICIOUS` (the service flagged the file),
 * `NOT_DETECTED` (no active detection service flagged it), or the code of the error that left the
 * lookup without a trustworthy answer (`TIMEOUT`, `INVALID_RESPONSE`, …; `NO_ANSWER` when the
 * outcome carries no error).
 */
export type DecisionReason = 'MALICIOUS' | 'NOT_DETECTED' | HashScanErrorCode | 'NO_ANSWER';

/** What {@link decideWithReason} returns: the action of {@link decide}, and why, ready to log. */
export interface ExplainedDecision {
  /** The same value `decide()` returns for this outcome and policy. */
  readonly action: Decision;
  /** Why: a stable code to log, count or alert on. */
  readonly reason: DecisionReason;
  /** The detection source of a flagged file, when the service gave one. */
  readonly source?: string | undefined;
}

/** What {@link decideWithReason} takes: an outcome of a lookup, or the bare `{ verdict }` `decide()` takes too. */
export type ExplainableOutcome = ScanOutcome | Pick<ScanOutcome, 'verdict'>;

/**
 * {@link decide}, with the reason a caller logs beside the action (`decide()` itself keeps returning
 * the bare action that code compares against).
 *
 * @example
 * ```ts
 * const outcome = await client.scanOutcome(sha256)
 * const { action, reason } = decideWithReason(outcome, { onError: 'block' })
 * log.info('upload checked', { sha256, action, reason }) // e.g. action 'review', reason 'TIMEOUT'
 * ```
 */
export function decideWithReason(outcome: ExplainableOutcome, policy: DecisionPolicy = {}): ExplainedDecision {
  const action = decide(outcome, policy);
  if (outcome.verdict === 'malicious') {
    const source = 'source' in outcome ? outcome.source : undefined;
    return source === undefined ? { action, reason: 'MALICIOUS' } : { action, reason: 'MALICIOUS', source };
  }
  if (outcome.verdict === 'not_detected') return { action, reason: 'NOT_DETECTED' };
  const code = 'error' in outcome ? outcome.error?.code : undefined;
  return { action, reason: code ?? 'NO_ANSWER' };
}
