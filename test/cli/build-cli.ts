/**
 * Vitest global setup: bundles the CLI once with esbuild (a fraction of a
 * second, where the full `tsup` build with declarations takes tens of
 * seconds), the same way tsup does for `dist/cli.js`: every dependency but
 * msw bundled, a chunk per command, ky replaced by its stand-in. The tests
 * then run that file with `node` in a child process, as users run the bin.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const OUT_DIR = fileURLToPath(new URL('../../node_modules/.cache/hashscan-sms-cli/', import.meta.url));
export const CLI_PATH = `${OUT_DIR}cli.mjs`;

export default async function setup(): Promise<void> {
  // Loaded here, not at the top: the tests import `CLI_PATH` from this file, and tsup's configuration
  // loads tsup itself, a cost every test process importing this file would pay for nothing.
  const [{ build }, { CLI_ALIAS, CLI_BANNER, CLI_CHUNK_NAMES, CLI_DEFINE, CLI_ENTRIES, CLI_EXTERNAL }] =
    await Promise.all([import('esbuild'), import('../../tsup.config.js')]);
  rmSync(OUT_DIR, { recursive: true, force: true });
  await build({
    entryPoints: Object.fromEntries(
      Object.entries(CLI_ENTRIES).map(([name, path]) => [
        name,
        fileURLToPath(new URL(`../../${path}`, import.meta.url)),
      ]),
    ),
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: CLI_EXTERNAL,
    alias: CLI_ALIAS,
    define: CLI_DEFINE,
    banner: { js: CLI_BANNER },
    outdir: OUT_DIR,
    outExtension: { '.js': '.mjs' },
    chunkNames: CLI_CHUNK_NAMES,
    logLevel: 'warning',
  });
}
