import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXPECTED } from '../../.ci/consumers/runtimes/catalogue.mjs';
import { bundleWorker, checkWorker } from '../../.ci/consumers/runtimes/worker-run.mjs';

const path = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));
const WORKER = path('../../.ci/consumers/runtimes/worker.mjs');
// The sources stand for the package, as the vitest alias does for the other tests.
const alias = { 'hashscan-sms': path('../../src/index.ts') };

describe.each([
  { compat: false, flags: 'without nodejs_compat' },
  { compat: true, flags: 'with nodejs_compat' },
])('a Worker using both clients, bundled as wrangler bundles it, in workerd (Miniflare) $flags', ({ compat }) => {
  it('bundles with no Node built-in, scans, sends, and fails closed on the catalogue', {
    timeout: 60_000,
  }, async () => {
    const built = await bundleWorker(WORKER, { compat, alias });
    const imports = Object.values(built.metafile.inputs).flatMap((input) => input.imports.map((entry) => entry.path));
    expect(imports.filter((specifier) => specifier.startsWith('node:'))).toEqual([]);
    const { smoke, catalogue } = await checkWorker(built.outputFiles[0]?.text ?? '', { compat });
    expect(smoke).toEqual({ eicar: 'block', sms: 'OK' });
    expect(catalogue).toEqual(EXPECTED);
  });
});
