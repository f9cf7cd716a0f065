import type { OutcomeView } from '../scan-row.js';
import type { StoredAnswer } from './store.js';

/** The answer an inventory keeps of an outcome obtained at `at`; `undefined` for an error (asked again next run). */
export function storedAnswer(outcome: OutcomeView, at: number): StoredAnswer | undefined {
  if (outcome.verdict === 'error') return undefined;
  const hit = outcome.verdict === 'malicious';
  return {
    verdict: outcome.verdict,
    source: hit ? outcome.source : undefined,
    firstSeen: hit ? outcome.data?.first_seen : undefined,
    lastSeen: hit ? outcome.data?.last_seen : undefined,
    checkedAtMs: at,
  };
}
