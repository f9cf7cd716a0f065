import { describe, expect, expectTypeOf, it } from 'vitest';
import { HashScanError } from '../../src/errors/hashscan-error.js';
import { type Decision, decide, decideWithReason, type ExplainedDecision } from '../../src/hashscan/decide.js';
import { HashScanClient } from '../../src/hashscan/hashscan-client.js';
import {
  EICAR_RECORD,
  SANDBOX_FAULT_HASHES,
  SANDBOX_NOT_DETECTED_HASH,
  startSandbox,
} from '../../src/sandbox/index.js';

describe('decideWithReason: the action of decide() and the reason to log', () => {
  it('gives the reason of each outcome a real lookup resolves', async () => {
    const sandbox = await startSandbox();
    try {
      const client = new HashScanClient({ baseUrl: sandbox.hashScanUrl, apiKey: sandbox.apiKey, retry: false });
      const hit = await client.scanOutcome(EICAR_RECORD.sha256);
      expect(decideWithReason(hit)).toEqual({ action: 'block', reason: 'MALICIOUS', source: 'eicar' });
      const clean = await client.scanOutcome(SANDBOX_NOT_DETECTED_HASH);
      expect(decideWithReason(clean)).toEqual({ action: 'allow', reason: 'NOT_DETECTED' });
      const abnormal = await client.scanOutcome(SANDBOX_FAULT_HASHES['status-not-success']);
      expect(decideWithReason(abnormal)).toEqual({ action: 'review', reason: 'STATUS_NOT_SUCCESS' });
      expect(decideWithReason(abnormal, { onError: 'block' })).toEqual({
        action: 'block',
        reason: 'STATUS_NOT_SUCCESS',
      });
      // The action is always decide()'s, whose return type is unchanged.
      for (const outcome of [hit, clean, abnormal]) {
        expect(decideWithReason(outcome).action).toBe(decide(outcome));
      }
    } finally {
      await sandbox.close();
    }
  });

  it('takes the bare shapes decide() takes', () => {
    expect(decideWithReason({ verdict: 'error' })).toEqual({ action: 'review', reason: 'NO_ANSWER' });
    expect(decideWithReason({ verdict: 'malicious' })).toEqual({ action: 'block', reason: 'MALICIOUS' });
    const error = new HashScanError({ code: 'TIMEOUT', message: 'late' });
    expect(decideWithReason({ verdict: 'error', hash: 'x', error })).toEqual({ action: 'review', reason: 'TIMEOUT' });
  });

  it('is typed: decide() still returns the bare union, decideWithReason() the pair', () => {
    expectTypeOf(decide).returns.toEqualTypeOf<Decision>();
    expectTypeOf(decideWithReason).returns.toEqualTypeOf<ExplainedDecision>();
    expectTypeOf<'TIMEOUT'>().toMatchTypeOf<ExplainedDecision['reason']>();
  });
});
