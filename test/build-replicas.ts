/**
 * Vitest global setup: bundles the replica scripts of the fleet and limits
 * tests (`test/fleet/replica.ts`, `test/limits/limits-replica.ts`) once with
 * esbuild, as the published build bundles the library (its dependencies in,
 * a `require` for the CommonJS ones); the Redis clients stay packages of
 * `node_modules`, as in an application. Each replica process then starts
 * from that bundle in a fraction of the CPU a TypeScript loader takes to
 * compile the sources again in every process.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const OUT_DIR = fileURLToPath(new URL('../node_modules/.cache/hashscan-sms-replicas/', import.meta.url));

/** The bundled replica scripts, run as `node <path>`. */
export const REPLICA_SCRIPTS = {
  fleet: `${OUT_DIR}fleet-replica.mjs`,
  limits: `${OUT_DIR}limits-replica.mjs`,
} as const;

export default async function setup(): Promise<void> {
  // Loaded here, not at the top: the tests import `REPLICA_SCRIPTS` from this file, and tsup's configuration
  // loads tsup itself, a cost every test process importing this file would pay for nothing.
  const [{ build }, { CLI_BANNER }] = await Promise.all([import('esbuild'), import('../tsup.config.js')]);
  rmSync(OUT_DIR, { recursive: true, force: true });
  await build({
    entryPoints: {
      'fleet-replica': fileURLToPath(new URL('./fleet/replica.ts', import.meta.url)),
      'limits-replica': fileURLToPath(new URL('./limits/limits-replica.ts', import.meta.url)),
    },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['ioredis', 'redis', 'msw'],
    // The shebang and a `require` for the CommonJS modules bundled into ESM (the bin's own banner).
    banner: { js: CLI_BANNER },
    // As the published build does: error classes keep their names.
    keepNames: true,
    // package.json's `sideEffects` names the built files: the sources' side effects (the root entry
    // installing the deprecated `fleet: { redis }` form) must not be dropped as if it named none.
    ignoreAnnotations: true,
    outdir: OUT_DIR,
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
  });
}
