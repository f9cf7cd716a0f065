import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';

const BUILD = fileURLToPath(new URL('./build-library.ts', import.meta.url));

/**
 * The library entries built with tsup's own configuration (ESM and CJS, no declarations) into
 * `node_modules/.cache/hashscan-sms-<name>/` before the file's tests, removed after them.
 * The build runs in a child process (see `build-library.ts`). Returns the folder.
 */
export function useBuiltLibrary(name: string): string {
  const outDir = fileURLToPath(new URL(`../../node_modules/.cache/hashscan-sms-${name}/`, import.meta.url));
  beforeAll(() => {
    rmSync(outDir, { recursive: true, force: true });
    const built = spawnSync(process.execPath, ['--import', 'tsx', BUILD, outDir], {
      encoding: 'utf8',
      env: { ...process.env, TSX_DISABLE_CACHE: '1' },
    });
    expect(built.stderr).toBe('');
    expect(built.status).toBe(0);
  }, 120_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));
  return outDir;
}
