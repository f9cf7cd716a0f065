/**
 * Vitest global setup: bundles the CLI once with esbuild (a fraction of a
 * second, where the full `tsup` build with declarations takes tens of
 * seconds), the same way tsup does for `dist/cli.js`: the package's
 * dependencies stay external, undici is bundled. The tests then run that
 * file with `node` in a child process, as users run the bin.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { CLI_BANNER } from '../../tsup.config.js';

export const CLI_PATH = fileURLToPath(new URL('../../node_modules/.cache/hashscan-sms-cli/cli.mjs', import.meta.url));

export default async function setup(): Promise<void> {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  await build({
    entryPoints: [fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: [...Object.keys(pkg.dependencies), 'msw'],
    banner: { js: CLI_BANNER },
    outfile: CLI_PATH,
    logLevel: 'warning',
  });
}
