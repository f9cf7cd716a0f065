// The server entries (`hashscan-sms`, `hashscan-sms/sandbox`, `hashscan-sms/hashing`, `hashscan-sms/signing`, `hashscan-sms/fleet`) in a project with
// `lib: ["ES2023"]` only and skipLibCheck off (tsconfig.es2023.json): they need no DOM lib. The types of the
// `decide(outcome, { explain: true })`, the deprecated `decideWithReason` and `eicarTestFile` are checked here too.
import {
  type Decision,
  decide,
  decideWithReason,
  type ExplainedDecision,
  HashScanClient,
  HashScanError,
} from 'hashscan-sms';
import { type FleetPlugin, type RedisFleetOptions, redisFleet } from 'hashscan-sms/fleet';
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

// `hashscan-sms/fleet`: the plugin form of the clients' `fleet` option, and the deprecated plain form still typed.
declare const fleetOptions: RedisFleetOptions;
const fleet: FleetPlugin = redisFleet(fleetOptions);
export const fleetClients = [
  new HashScanClient({ fleet }),
  new HashScanClient({ fleet: { redis: fleetOptions.redis, prefix: 'p' } }),
];
