import { defineConfig } from 'tsup';

// ky and p-retry ship ESM only. A CJS build that `require()`s them fails at
// run time (`import_ky.default.create is not a function`), so the CJS output
// bundles them; the ESM output keeps every dependency external.
const esmOnlyDependencies = ['ky', 'p-retry', 'is-network-error'];

const entry = { index: 'src/index.ts' };

export default defineConfig([
  {
    entry,
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    dts: true,
    sourcemap: true,
    clean: true,
    treeshake: true,
  },
  {
    entry,
    format: ['cjs'],
    target: 'node20',
    platform: 'node',
    dts: true,
    sourcemap: true,
    treeshake: true,
    noExternal: esmOnlyDependencies,
  },
]);
