import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Gives the test run a temp dir of its own (TMPDIR, which `os.tmpdir()` reads
 * and the test workers inherit) and fails the run if a test leaves anything
 * in it: every test must clean up what it creates.
 */
export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'hashscan-sms-vitest-'));
  process.env.TMPDIR = dir;
  return () => {
    const left = readdirSync(dir);
    rmSync(dir, { recursive: true, force: true });
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (left.length > 0) {
      throw new Error(
        `tests left ${left.length} entries in the temp dir (clean up what tests create): ${left.join(', ')}`,
      );
    }
  };
}
