import { describe, expect, it } from 'vitest';
import { simulateSlowAnswer } from './slow-answer.js';

describe('--order input after one slow answer (simulated: one line of 100,000 answered after 15 s, past the 10 s time-out)', () => {
  it('keeps at least half the throughput of --order completion: the slow answer holds output, not the pace', () => {
    const run = { lines: 100_000, slowLine: 9 } as const;
    const completion = simulateSlowAnswer({ ...run, order: 'completion' });
    const input = simulateSlowAnswer({ ...run, order: 'input' });
    expect(completion.reported).toBe(100_000);
    expect(input.reported).toBe(100_000);
    expect(input.perSecond / completion.perSecond).toBeGreaterThanOrEqual(0.5);
    // The time-outs met while the window held feeding set no pace of 1 a second.
    expect(input.lowestPace ?? Number.POSITIVE_INFINITY).toBeGreaterThan(1_000);
  });

  it('holds with a slow line late in the run, and with a slower service', () => {
    for (const run of [
      { lines: 100_000, slowLine: 60_000 },
      { lines: 50_000, slowLine: 9, capacity: 800, latencyMs: 20 },
    ]) {
      const completion = simulateSlowAnswer({ ...run, order: 'completion' });
      const input = simulateSlowAnswer({ ...run, order: 'input' });
      expect(input.reported).toBe(run.lines);
      expect(input.perSecond / completion.perSecond).toBeGreaterThanOrEqual(0.5);
    }
  });
});
