import { defineConfig } from 'tsup';

// ky and p-retry ship ESM only. A CJS build that `require()`s them fails at
// run time (`import_ky.default.create is not a function`), so the CJS output
// bundles them; the ESM output keeps every dependency external.
const esmOnlyDependencies = ['ky', 'p-retry', 'is-network-error'];

const entry = { index: 'src/index.ts', testing: 'src/testing/index.ts', sandbox: 'src/sandbox/index.ts' };

// msw is an optional peer dependency of `hashscan-sms/testing`: never bundled, in either format.
const external = ['msw'];

/** The bin's first lines: the shebang, and a `require` for the CommonJS modules of undici bundled into ESM. */
export const CLI_BANNER = [
  '#!/usr/bin/env node',
  "import { createRequire as __hashscanCreateRequire } from 'node:module';",
  'const require = __hashscanCreateRequire(import.meta.url);',
].join('\n');

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
    external,
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
    external,
    // Without a shared chunk, dist/testing.cjs would carry its own copy of every
    // class, and `instanceof` would fail across the two entry points.
    splitting: true,
  },
  {
    // The `hashscan-sms` command. undici (a devDependency) is bundled in, so the
    // CLI gets the dispatcher transport without making library users install it.
    // Minified, without a source map: undici is most of it (608 KB, 193 KB in the tarball).
    entry: { cli: 'src/cli/bin.ts' },
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    minify: true,
    treeshake: true,
    noExternal: ['undici'],
    external,
    banner: { js: CLI_BANNER },
  },
]);
