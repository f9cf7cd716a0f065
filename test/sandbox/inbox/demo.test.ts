import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('npm run demo', () => {
  it('prints the inbox address, and exits when no person is watching (stdout not a terminal)', {
    timeout: 60_000,
  }, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'examples/demo.ts'], {
      cwd: root,
      // tsx would leave its cache in the run's temp dir.
      env: { ...process.env, TSX_DISABLE_CACHE: '1' },
      timeout: 55_000,
    });
    const url = /^hashscan-sms demo: sandbox listening on (http:\/\/127\.0\.0\.1:\d+) /m.exec(stdout)?.[1];
    expect(url).toBeDefined();
    expect(stdout).toContain(`inbox (every send and lookup below, live in a browser): ${url}/_inbox\n`);
    expect(stdout).not.toContain('Ctrl-C to stop');
  });
});
