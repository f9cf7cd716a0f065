import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'hashscan-sms-ci-steps-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// A stand-in `npm` whose `audit` fails the way npm does when the advisory service is down.
const bin = join(work, 'bin');
mkdirSync(bin);
writeFileSync(
  join(bin, 'npm'),
  '#!/bin/sh\necho "npm error audit endpoint returned an error" >&2\necho "{}"\nexit 1\n',
);
chmodSync(join(bin, 'npm'), 0o755);

/** Runs steps through .ci/lib/steps.sh as .ci/run does, and returns its output and exit status. */
function runSteps(script: string, env: Record<string, string> = {}) {
  const result = spawnSync(
    'bash',
    ['-euo', 'pipefail', '-c', `source .ci/lib/steps.sh\n${script}\nsummary\n[ "$FAILED" -eq 0 ]`],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, WORK: work, PATH: `${bin}:${process.env.PATH}`, AUDIT_REQUIRED: '', ...env },
      timeout: 60_000,
    },
  );
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('CI summary of the audit step', () => {
  it('shows `unavailable`, not `ok`, when the advisory service gave no report, and does not fail', () => {
    const { status, output } = runSteps('step "npm audit" node .ci/lib/audit.mjs\nstep "lint" true');
    expect(output).toContain('AUDIT UNAVAILABLE');
    expect(output).toMatch(/^npm audit\s+\d+\s+unavailable$/m);
    expect(output).toMatch(/^lint\s+\d+\s+ok$/m);
    expect(output).toMatch(/^total\s+\d+\s+ok$/m);
    expect(status).toBe(0);
  });

  it('fails the run when AUDIT_REQUIRED=1', () => {
    const { status, output } = runSteps('step "npm audit" node .ci/lib/audit.mjs', {
      AUDIT_REQUIRED: '1',
      CI_KEEP_GOING: '1',
    });
    expect(output).toMatch(/^npm audit\s+\d+\s+FAILED \(exit 1\)$/m);
    expect(output).toMatch(/^total\s+\d+\s+FAILED$/m);
    expect(status).not.toBe(0);
  });
});
