/**
 * Vitest global setup: the library entries built with tsup's own configuration (ESM and CJS,
 * no declarations) into `node_modules/.cache/hashscan-sms-library/`, for the tests that load the
 * built package in a child `node` (error names, ky's lazy load, call depth, entry imports). Built
 * once, and again only when what the build reads changed (the sources, tsup's configuration,
 * the package and lock files, tsconfig): a digest of them is kept beside the build. The build
 * runs in a child process (`helpers/build-library.ts`).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CACHE = join(ROOT, 'node_modules/.cache/');

/** The built library's folder (`index.js`, `index.cjs`, … of each entry). */
export const LIBRARY_DIR = join(CACHE, 'hashscan-sms-library/');

const STAMP = '.sources-digest';

/** A digest of every file the build reads from this repository. */
function sourcesDigest(): string {
  const hash = createHash('sha256');
  const files = [
    ...readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).map((file) => join('src', file)),
    'tsup.config.ts',
    'package.json',
    'package-lock.json',
    'tsconfig.json',
  ].sort();
  for (const file of files) {
    const path = join(ROOT, file);
    let content: Buffer;
    try {
      content = readFileSync(path);
    } catch {
      continue; // a folder
    }
    hash.update(`${file}\0${content.length}\0`).update(content);
  }
  return hash.digest('hex');
}

export default function setup(): void {
  const digest = sourcesDigest();
  const stamp = join(LIBRARY_DIR, STAMP);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return;
  // Built aside and moved in: another run reading the folder meanwhile never sees half a build.
  const aside = join(CACHE, `hashscan-sms-library-${process.pid}/`);
  rmSync(aside, { recursive: true, force: true });
  const built = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./helpers/build-library.ts', import.meta.url)), aside],
    { encoding: 'utf8', env: { ...process.env, TSX_DISABLE_CACHE: '1' } },
  );
  if (built.status !== 0 || built.stderr !== '') {
    rmSync(aside, { recursive: true, force: true });
    throw new Error(`building the library for the tests failed (exit ${built.status}): ${built.stderr}`);
  }
  writeFileSync(join(aside, STAMP), digest);
  rmSync(LIBRARY_DIR, { recursive: true, force: true });
  renameSync(aside, LIBRARY_DIR);
}
