import { describe, expect, it } from 'vitest';
import { sleep } from '../../src/util/sleep.js';

describe('sleep', () => {
  it('a delay past what setTimeout can wait (a year read from somewhere) waits, never fires at once', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      let settled: string | undefined;
      const waiting = sleep(365 * 24 * 3_600_000, controller.signal, () => new Error('aborted')).then(
        () => (settled = 'resolved'),
        () => (settled = 'aborted'),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      controller.abort();
      await waiting;
      expect(settled).toBe('aborted');
      expect(warnings).not.toContain('TimeoutOverflowWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
