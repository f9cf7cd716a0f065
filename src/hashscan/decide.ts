import type { HashScanErrorCode } from '../errors/hashscan-error.js';
import type { ScanOutcome } from './scan-result.js';

/** What to do with a file. */
export type Decision = 'block' | 'allow' | 'review';

/**
 * How `decide` treats a lookup that gave no answer, and what it returns.
 *
 * @example
 * ```ts
 * decide(outcome, { onError: 'block' }) // strict: unknown files are refused
 * decide(outcome, { explain: true }) // { action, reason }, to log
 * ```
 */
export interface DecisionPolicy {
  /** Decision for an `error` outcome (time-out, abnormal response, …). @defaultValue 'review' */
  readonly onError?: 'review' | 'block' | undefined;
  /**
   * `true` makes {@link decide} return the action and why ({@link ExplainedDecision}) instead of the
   * bare action: a policy typed `DecisionPolicy` always returns the bare action.
   * @defaultValue false
   */
  readonly explain?: false | undefined;
}

/**
 * The one decision rule, the caller flow of the spec: a flagged file is blocked, an unflagged one
 * continues (with your other checks still in place), and a lookup without a trustworthy answer goes
 * to review, or is blocked if the policy says so. It never allows on an error.
 *
 * Returns the bare action (`'block' | 'allow' | 'review'`), or, with `{ explain: true }`, the action
 * and its reason, ready to log ({@link ExplainedDecision}).
 *
 * @example
 * ```ts
 * const outcome = await client.scanOutcome(sha256)
 * if (decide(outcome) !== 'allow') quarantine(file)
 * const { action, reason } = decide(outcome, { onError: 'block', explain: true })
 * log.info('upload checked', { sha256, action, reason }) // e.g. action 'block', reason 'TIMEOUT'
 * ```
 */
export function decide(
  outcome: ExplainableOutcome,
  policy: Omit<DecisionPolicy, 'explain'> & { readonly explain: true },
): ExplainedDecision;
/** {@link decide} without `explain`: the bare action, `'block' | 'allow' | 'review'`. */
export function decide(outcome: ExplainableOutcome, policy?: DecisionPolicy): Decision;
export function decide(
  outcome: ExplainableOutcome,
  policy: Omit<DecisionPolicy, 'explain'> & { readonly explain?: boolean | undefined } = {},
): Decision | ExplainedDecision {
  const action = actionOf(outcome, policy);
  return policy.explain === true ? explained(outcome, action) : action;
}

function actionOf(outcome: ExplainableOutcome, policy: Omit<DecisionPolicy, 'explain'>): Decision {
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
 * Why {@link decide} (with `explain: true`) decided what it did: `MALICIOUS` (the service flagged the file),
 * `NOT_DETECTED` (no active detection service flagged it), or the code of the error that left the
 * lookup without a trustworthy answer (`TIMEOUT`, `INVALID_RESPONSE`, …; `NO_ANSWER` when the
 * outcome carries no error).
 */
export type DecisionReason = 'MALICIOUS' | 'NOT_DETECTED' | HashScanErrorCode | 'NO_ANSWER';

/** What `decide(outcome, { explain: true })` returns: the action, and why, ready to log. */
export interface ExplainedDecision {
  /** The same value `decide()` returns for this outcome and policy. */
  readonly action: Decision;
  /** Why: a stable code to log, count or alert on. */
  readonly reason: DecisionReason;
  /** The detection source of a flagged file, when the service gave one. */
  readonly source?: string | undefined;
}

/** What {@link decide} takes: an outcome of a lookup, or a bare `{ verdict }`. */
export type ExplainableOutcome = ScanOutcome | Pick<ScanOutcome, 'verdict'>;

/**
 * {@link decide} with `explain: true`, under its old name.
 * @deprecated Use `decide(outcome, { ...policy, explain: true })`: one decision function. This alias
 * stays for at least one minor release.
 */
export function decideWithReason(outcome: ExplainableOutcome, policy: DecisionPolicy = {}): ExplainedDecision {
  return decide(outcome, { ...policy, explain: true });
}

function explained(outcome: ExplainableOutcome, action: Decision): ExplainedDecision {
  if (outcome.verdict === 'malicious') {
    const source = 'source' in outcome ? outcome.source : undefined;
    return source === undefined ? { action, reason: 'MALICIOUS' } : { action, reason: 'MALICIOUS', source };
  }
  if (outcome.verdict === 'not_detected') return { action, reason: 'NOT_DETECTED' };
  const code = 'error' in outcome ? outcome.error?.code : undefined;
  return { action, reason: code ?? 'NO_ANSWER' };
}
