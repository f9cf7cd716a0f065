import { defineConfig } from 'tsup';

// `hashing`: the digests alone, for scripts and upload handlers that hash without the clients (no zod or ky to load).
// `fleet`: `redisFleet()`, the fleet as a plugin for the clients' `fleet` option (the root entry keeps the
// deprecated `fleet: { redis }` form working, which is why package.json lists it under `sideEffects`).
// `signing`: the AK/SK signing functions alone, for gateways, test doubles and scripts that sign or verify without the client.
const entry = {
  index: 'src/index.ts',
  testing: 'src/testing/index.ts',
  sandbox: 'src/sandbox/index.ts',
  hashing: 'src/hashing/index.ts',
  signing: 'src/sms/signing/index.ts',
  fleet: 'src/fleet/index.ts',
};

/**
 * The runtime dependencies bundled (tree-shaken) into both builds: one file loads in a fraction of
 * the time of their modules resolved one by one (the cold start, BENCHMARKS.md), and ky and
 * @noble/hashes ship ESM only, which a CJS build could not `require()`. They stay `dependencies`
 * in package.json, so their licences and advisories reach the user's tree. lru-cache stays
 * external: its `node` build imports `node:diagnostics_channel`, which would then be in the root
 * entry, and a Worker without `nodejs_compat` could not bundle it; resolved by the user's bundler,
 * a Worker gets its browser build.
 */
const BUNDLED = ['zod', 'ky', /^@noble\/hashes/];

// msw is an optional peer dependency of `hashscan-sms/testing`: never bundled, in either format.
const external = ['msw'];

/** The bin's first lines: the shebang, and a `require` for the CommonJS modules of undici bundled into ESM. */
export const CLI_BANNER = [
  '#!/usr/bin/env node',
  "import { createRequire as __hashscanCreateRequire } from 'node:module';",
  'const require = __hashscanCreateRequire(import.meta.url);',
].join('\n');

/**
 * The bin is one small entry (`dist/cli.js`: argument routing, `--version`,
 * `--help`) and a chunk per command under `dist/cli-chunks/`, loaded when the
 * command runs. Every dependency but msw is bundled in: a single minified
 * file loads several times faster than the ~110 ESM files of zod and ky
 * resolved one by one, and start-up counts in every CLI figure.
 */
export const CLI_CHUNK_NAMES = 'cli-chunks/[name]-[hash]';

/** The bin, scan's hashing thread (src/cli/hashing/), the inventory's walking thread (src/cli/walk-thread/) and the lookup threads of `--workers` (src/cli/lookups/). */
export const CLI_ENTRIES = {
  cli: 'src/cli/bin.ts',
  'cli-hash-thread': 'src/cli/hashing/hash-thread.ts',
  'cli-walk-thread': 'src/cli/walk-thread/walk-thread.ts',
  'cli-lookup-thread': 'src/cli/lookups/lookup-thread.ts',
};

/**
 * Left out of the CLI bundle: msw (never needed), and the optional peers of
 * `lookup --queue`, `worker` and `--redis` (bullmq and ioredis) and of
 * `scan s3://…` (@aws-sdk/client-s3) and of `scan --inventory` on Node 20
 * (better-sqlite3, a native add-on), loaded from the user's node_modules only
 * when those flags and arguments run.
 */
export const CLI_EXTERNAL = ['msw', 'bullmq', 'ioredis', '@aws-sdk/client-s3', 'better-sqlite3'];

/** ky is never used by the CLI (it sends through undici) and costs 20 to 25 ms to evaluate: see src/cli/ky-absent.ts. */
export const CLI_ALIAS = { ky: './src/cli/ky-absent.ts' };

/** undici reads these on its first connection: Deno would then ask for `--allow-env` even when every option is a flag. */
export const CLI_DEFINE = {
  'process.env.JEST_WORKER_ID': 'undefined',
  'process.env.UNDICI_NO_WASM_SIMD': 'undefined',
};

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
    noExternal: BUNDLED,
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
    noExternal: BUNDLED,
    external,
    // Without a shared chunk, dist/testing.cjs would carry its own copy of every
    // class, and `instanceof` would fail across the two entry points.
    splitting: true,
  },
  {
    // The `hashscan-sms` command. undici (a devDependency) is bundled in, so the
    // CLI gets the dispatcher transport without making library users install it.
    // Minified, without a source map: undici is most of it.
    entry: CLI_ENTRIES,
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    minify: true,
    // esbuild's own tree shaking: tsup's rollup pass would merge the chunks back.
    treeshake: false,
    splitting: true,
    noExternal: [/^(?!(msw|bullmq|ioredis|@aws-sdk\/client-s3|better-sqlite3)$)/],
    external: CLI_EXTERNAL,
    banner: { js: CLI_BANNER },
    esbuildOptions(options) {
      options.chunkNames = CLI_CHUNK_NAMES;
      options.alias = CLI_ALIAS;
      options.define = { ...options.define, ...CLI_DEFINE };
    },
  },
]);
