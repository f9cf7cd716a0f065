import { describe, expect, expectTypeOf, it } from 'vitest';
import { HashScanError } from '../../src/errors/hashscan-error.js';
import {
  type Decision,
  type DecisionPolicy,
  decide,
  decideWithReason,
  type ExplainedDecision,
} from '../../src/hashscan/decide.js';
import { HashScanClient } from '../../src/hashscan/hashscan-client.js';
import {
  EICAR_RECORD,
  SANDBOX_FAULT_HASHES,
  SANDBOX_NOT_DETECTED_HASH,
  startSandbox,
} from '../../src/sandbox/index.js';

const explain = { explain: true } as const;

describe('decide(outcome, { explain: true }): the action and the reason to log', () => {
  it('gives the reason of each outcome a real lookup resolves', async () => {
    const sandbox = await startSandbox();
    try {
      const client = new HashScanClient({ baseUrl: sandbox.hashScanUrl, apiKey: sandbox.apiKey, retry: false });
      const hit = await client.scanOutcome(EICAR_RECORD.sha256);
      expect(decide(hit, explain)).toEqual({ action: 'block', reason: 'MALICIOUS', source: 'eicar' });
      const clean = await client.scanOutcome(SANDBOX_NOT_DETECTED_HASH);
      expect(decide(clean, explain)).toEqual({ action: 'allow', reason: 'NOT_DETECTED' });
      const abnormal = await client.scanOutcome(SANDBOX_FAULT_HASHES['status-not-success']);
      expect(decide(abnormal, explain)).toEqual({ action: 'review', reason: 'STATUS_NOT_SUCCESS' });
      expect(decide(abnormal, { onError: 'block', explain: true })).toEqual({
        action: 'block',
        reason: 'STATUS_NOT_SUCCESS',
      });
      for (const outcome of [hit, clean, abnormal]) {
        // The action is the bare one decide() returns without the option, for either policy.
        expect(decide(outcome, explain).action).toBe(decide(outcome));
        expect(decide(outcome, { onError: 'block', explain: true }).action).toBe(decide(outcome, { onError: 'block' }));
        // The deprecated decideWithReason() is the same rule.
        expect(decideWithReason(outcome)).toEqual(decide(outcome, explain));
        expect(decideWithReason(outcome, { onError: 'block' })).toEqual(
          decide(outcome, { onError: 'block', explain: true }),
        );
      }
    } finally {
      await sandbox.close();
    }
  });

  it('takes the bare shapes decide() takes', () => {
    expect(decide({ verdict: 'error' }, explain)).toEqual({ action: 'review', reason: 'NO_ANSWER' });
    expect(decide({ verdict: 'malicious' }, explain)).toEqual({ action: 'block', reason: 'MALICIOUS' });
    const error = new HashScanError({ code: 'TIMEOUT', message: 'late' });
    expect(decide({ verdict: 'error', hash: 'x', error }, explain)).toEqual({ action: 'review', reason: 'TIMEOUT' });
    expect(decideWithReason({ verdict: 'error', hash: 'x', error })).toEqual({ action: 'review', reason: 'TIMEOUT' });
  });

  it('returns the bare action without the option, or with explain false or undefined', () => {
    const outcome = { verdict: 'error' } as const;
    expect(decide(outcome)).toBe('review');
    expect(decide(outcome, { explain: false })).toBe('review');
    expect(decide(outcome, { onError: 'block', explain: undefined })).toBe('block');
  });

  it('is typed: the bare union without the option, the pair with it (checked by tsc)', () => {
    const outcome = { verdict: 'not_detected' } as const;
    const policy: DecisionPolicy = { onError: 'block' };
    expectTypeOf(decide(outcome)).toEqualTypeOf<Decision>();
    expectTypeOf(decide(outcome, policy)).toEqualTypeOf<Decision>();
    expectTypeOf(decide(outcome, { explain: false })).toEqualTypeOf<Decision>();
    expectTypeOf(decide(outcome, explain)).toEqualTypeOf<ExplainedDecision>();
    expectTypeOf(decideWithReason).returns.toEqualTypeOf<ExplainedDecision>();
    expectTypeOf<'TIMEOUT'>().toMatchTypeOf<ExplainedDecision['reason']>();
    const unknown: boolean = outcome.verdict === 'not_detected';
    // @ts-expect-error a policy whose `explain` may be either must be narrowed: the return type would be unknown
    decide(outcome, { explain: unknown });
  });
});
