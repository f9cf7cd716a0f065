// The server entries (`hashscan-sms`, `hashscan-sms/sandbox`, `hashscan-sms/hashing`, `hashscan-sms/signing`) in a project with
// `lib: ["ES2023"]` only and skipLibCheck off (tsconfig.es2023.json): they need no DOM lib. The types of the
// `decide(outcome, { explain: true })`, the deprecated `decideWithReason` and `eicarTestFile` are checked here too.
import { type Decision, decide, decideWithReason, type ExplainedDecision, HashScanError } from 'hashscan-sms';
import { hashBytes } from 'hashscan-sms/hashing';
import { EICAR_RECORD, eicarTestFile } from 'hashscan-sms/sandbox';
import { computeSignature, explainSignature, type SignatureExplanation } from 'hashscan-sms/signing';

const outcome = {
  verdict: 'error',
  hash: 'x',
  error: new HashScanError({ code: 'TIMEOUT', message: 'late' }),
} as const;
const action: Decision = decide(outcome);
const explained: ExplainedDecision = decideWithReason(outcome, { onError: 'block' });
const explainedByDecide: ExplainedDecision = decide(outcome, { onError: 'block', explain: true });
// @ts-expect-error decide() still returns the bare action, not an object
const wrong: { action: Decision } = decide(outcome);
const signed: SignatureExplanation = explainSignature('POST', { a: '1' }, 'secret');
export const serverEntries = [
  action,
  explained.reason,
  explainedByDecide.reason,
  wrong,
  hashBytes(eicarTestFile()) === EICAR_RECORD.sha256,
  signed.signature === computeSignature('POST', { a: '1' }, 'secret'),
];
