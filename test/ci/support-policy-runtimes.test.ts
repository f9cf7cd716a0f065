import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkRuntimes, type PolicyInputs, type SupportPolicy } from '../../.ci/lib/support-policy.mjs';

const ROOT = new URL('../../', import.meta.url);
const read = (file: string): string => readFileSync(new URL(file, ROOT), 'utf8');

function repository(): Pick<PolicyInputs, 'policy' | 'manifest' | 'runScript'> {
  return {
    policy: JSON.parse(read('support-policy.json')) as SupportPolicy,
    manifest: JSON.parse(read('package.json')) as PolicyInputs['manifest'],
    runScript: read('.ci/run') + read('.ci/lib/runtimes.sh'),
  };
}

describe('support policy: runtimes besides Node (.ci/lib/support-policy.mjs)', () => {
  it('the repository pins and runs Bun, Deno and workerd as the policy says', () => {
    const inputs = repository();
    expect(inputs.policy.runtimes?.map((runtime) => runtime.name)).toEqual(['bun', 'deno', 'workerd']);
    expect(checkRuntimes(inputs)).toEqual([]);
  });

  it('fails when a runtime is not pinned at the policy version (a range drifts)', () => {
    const inputs = structuredClone(repository());
    inputs.manifest.devDependencies = { ...inputs.manifest.devDependencies, deno: '^2.9.6' };
    expect(checkRuntimes(inputs)).toEqual([
      'runtime deno: the policy pins deno 2.9.6, package.json devDependencies has "^2.9.6"',
    ]);
  });

  it('fails when CI stops running a runtime', () => {
    const inputs = structuredClone(repository());
    inputs.runScript = inputs.runScript.replace('step "runtimes: msw kit, bun"             runtime_kit bun', '');
    expect(checkRuntimes(inputs)).toEqual([
      'runtime bun: .ci/run does not run runtime_smoke "$runtime", runtime_kit bun',
    ]);
  });
});
