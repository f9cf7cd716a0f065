import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  checkSupportPolicy,
  defaultMatrix,
  enginesMinimum,
  POLICY_PAGE,
  type PolicyInputs,
  rangeMajor,
  renderReadmeSection,
  type SupportPolicy,
  writeReadmeSection,
} from '../../.ci/lib/support-policy.mjs';

const ROOT = new URL('../../', import.meta.url);
const read = (file: string): string => readFileSync(new URL(file, ROOT), 'utf8');

/** The repository's own files, as CI checks them, on a day before any announced end of support. */
function repository(): PolicyInputs {
  return {
    policy: JSON.parse(read('support-policy.json')) as SupportPolicy,
    manifest: JSON.parse(read('package.json')) as PolicyInputs['manifest'],
    runScript: read('.ci/run'),
    readme: read(POLICY_PAGE),
    baseNodeMajor: 20,
    today: '2026-11-24',
  };
}

/** The inputs with `change` applied to a deep copy. */
function changed(change: (inputs: PolicyInputs) => void): PolicyInputs {
  const inputs = structuredClone(repository());
  change(inputs);
  return inputs;
}

describe('support policy check (.ci/lib/support-policy.mjs)', () => {
  it('the repository agrees with its policy', () => {
    expect(checkSupportPolicy(repository())).toEqual([]);
  });

  it('reads engines, the matrix default and range majors', () => {
    expect(enginesMinimum('>=20.19')).toEqual([20, 19, 0]);
    expect(enginesMinimum('^20 || >=22')).toBeUndefined();
    expect(defaultMatrix(`NODE_MATRIX=(\${CI_NODE_MATRIX-22 24 26})`)).toEqual([22, 24, 26]);
    expect(defaultMatrix('NODE_MATRIX=(22 24)')).toBeUndefined();
    expect([
      rangeMajor('~1.14.2'),
      rangeMajor('^7.1.1'),
      rangeMajor('npm:undici@^8.12.4'),
      rangeMajor('5.1.6'),
    ]).toEqual([1, 7, 8, 5]);
  });

  it('fails when engines admit another minimum than the policy', () => {
    const problems = checkSupportPolicy(
      changed((inputs) => {
        inputs.manifest.engines = { node: '>=22' };
      }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/engines\.node admits Node >= 22\.0\.0, the policy's minimum is 20\.19\.0/),
    ]);
  });

  it('fails when a supported Node is not in the CI matrix, or the matrix tests an unsupported one', () => {
    const missing = checkSupportPolicy(
      changed((inputs) => {
        inputs.runScript = inputs.runScript.replace('CI_NODE_MATRIX-22 24 26', 'CI_NODE_MATRIX-22 24');
      }),
    );
    expect(missing).toEqual([expect.stringMatching(/Node 26 is supported but not tested/)]);
    const extra = checkSupportPolicy(
      changed((inputs) => {
        inputs.runScript = inputs.runScript.replace('CI_NODE_MATRIX-22 24 26', 'CI_NODE_MATRIX-18 22 24 26');
      }),
    );
    expect(extra).toEqual([expect.stringMatching(/CI tests Node 18, which the policy does not support/)]);
    // CI on a machine whose own Node is 22 would leave Node 20 untested.
    expect(
      checkSupportPolicy(
        changed((inputs) => {
          inputs.baseNodeMajor = 22;
        }),
      ),
    ).toEqual([expect.stringMatching(/Node 20 is supported but not tested/)]);
  });

  it('fails once a line is past its announced end of support, until it is dropped everywhere', () => {
    const late = changed((inputs) => {
      inputs.today = '2027-02-01';
    });
    expect(checkSupportPolicy(late)).toEqual([expect.stringMatching(/Node 20: support ended on 2027-01-31: drop it/)]);
    expect(
      checkSupportPolicy(
        changed((inputs) => {
          inputs.today = '2027-01-31';
        }),
      ),
    ).toEqual([]);
  });

  it('fails when a held-back major runs on every supported Node, or package.json moved without the policy', () => {
    const dropped20 = changed((inputs) => {
      inputs.policy.minimumNode = '22.12.0';
      inputs.policy.node = inputs.policy.node.filter((line) => line.major !== 20);
      inputs.manifest.engines = { node: '>=22.12' };
      inputs.runScript = inputs.runScript.replace('CI_NODE_MATRIX-22 24 26', 'CI_NODE_MATRIX-24 26');
      inputs.baseNodeMajor = 22;
      inputs.readme = writeReadmeSection(inputs.readme, inputs.policy);
    });
    const problems = checkSupportPolicy(dropped20);
    expect(problems).toContainEqual(
      expect.stringMatching(/heldBack ky: ky 2 needs Node >= 22\.0\.0, which every supported Node has: move to it/),
    );
    expect(problems).toContainEqual(expect.stringMatching(/heldBack msw: .*move to it/));
    expect(problems).not.toContainEqual(expect.stringMatching(/heldBack keyv/)); // keyv 6 still needs 22.19

    const moved = checkSupportPolicy(
      changed((inputs) => {
        inputs.manifest.dependencies = { ...inputs.manifest.dependencies, ky: '^2.1.0' };
      }),
    );
    expect(moved).toEqual([
      expect.stringMatching(/heldBack ky: the policy holds it at 1, package.json asks for "\^2\.1\.0"/),
    ]);
  });

  it('fails when the README does not state the policy as the file does', () => {
    const stale = changed((inputs) => {
      const [first] = inputs.policy.node;
      if (first) first.endOfSupport = '2027-03-31';
    });
    expect(checkSupportPolicy(stale)).toEqual([
      expect.stringMatching(/docs\/support-policy\.md does not hold the policy table/),
    ]);
    const rewritten = writeReadmeSection(stale.readme, stale.policy);
    expect(rewritten).toContain(renderReadmeSection(stale.policy));
    expect(checkSupportPolicy({ ...stale, readme: rewritten })).toEqual([]);
  });
});
