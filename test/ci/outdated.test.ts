import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { directDependencies, driftReport } from '../../.ci/lib/outdated.mjs';
import type { SupportPolicy } from '../../.ci/lib/support-policy.mjs';

const policy = JSON.parse(readFileSync(new URL('../../support-policy.json', import.meta.url), 'utf8')) as SupportPolicy;

describe('outdated report (.ci/lib/outdated.mjs)', () => {
  const manifest = {
    dependencies: { ky: '~1.14.2', zod: '^4.6.7' },
    devDependencies: {
      typescript: '~5.9.3',
      undici: '^7.30.2',
      undici8: 'npm:undici@^8.12.4',
      other: 'npm:left-pad@^1',
    },
  };

  it('lists direct dependencies, resolving aliases and leaving out the pinned-major ones (undici8)', () => {
    expect(directDependencies(manifest)).toEqual([
      { key: 'ky', name: 'ky', range: '~1.14.2', kind: 'dependency' },
      { key: 'zod', name: 'zod', range: '^4.6.7', kind: 'dependency' },
      { key: 'typescript', name: 'typescript', range: '~5.9.3', kind: 'devDependency' },
      { key: 'undici', name: 'undici', range: '^7.30.2', kind: 'devDependency' },
      { key: 'other', name: 'left-pad', range: '^1', kind: 'devDependency' },
    ]);
  });

  it('reports a major behind, says which the policy holds back, and leaves the current ones out', () => {
    const rows = driftReport(
      directDependencies(manifest),
      { ky: '1.14.3', zod: '4.6.7', typescript: '5.9.3', undici: '7.30.2' },
      {
        ky: { version: '2.1.0', node: '>=22' },
        zod: { version: '4.7.0' },
        typescript: { version: '7.0.2', node: '>=14.17' },
        undici: { version: '8.13.1', node: '>=22.19.0' },
      },
      policy,
    );
    expect(rows).toEqual([
      expect.objectContaining({
        name: 'ky',
        latest: '2.1.0',
        status: expect.stringMatching(/^held back: ky 2 needs Node 22/),
      }),
      expect.objectContaining({ name: 'typescript', installed: '5.9.3', latest: '7.0.2', status: 'behind' }),
      expect.objectContaining({ name: 'undici', status: expect.stringMatching(/^held back/) }),
    ]);
  });
});
