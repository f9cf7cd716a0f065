import { EXIT } from './usage-error.js';

/** `1 file`, `2 files`: a count and its noun, singular for exactly one. */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}

/** Decisions so far, and the exit status they lead to. */
export interface DecisionTally {
  allow: number;
  block: number;
  review: number;
}

/**
 * 1 when anything is blocked; 2 when anything needs review (unless
 * `--fail-on block`); else 0.
 */
export function exitStatus(tally: DecisionTally, failOn: 'review' | 'block'): number {
  if (tally.block > 0) return EXIT.block;
  if (tally.review > 0 && failOn === 'review') return EXIT.review;
  return EXIT.ok;
}

export function describeTally(tally: DecisionTally, noun: string): string {
  const total = tally.allow + tally.block + tally.review;
  const plural = `${noun}${noun.endsWith('h') ? 'es' : 's'}`;
  return `${counted(total, noun, plural)}: ${tally.block} block, ${tally.review} review, ${tally.allow} allow`;
}
