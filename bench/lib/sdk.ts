import { fileURLToPath, pathToFileURL } from 'node:url';

/** The package as users get it: the build in dist/, typed from the sources. */
export type Sdk = typeof import('../../src/index.js');

export const DIST_ESM = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
export const DIST_CJS = fileURLToPath(new URL('../../dist/index.cjs', import.meta.url));

export async function loadSdk(): Promise<Sdk> {
  return (await import(pathToFileURL(DIST_ESM).href)) as Sdk;
}

/**
 * An earlier build to measure in the same run, interleaved with this one
 * (before/after from the same process and minute): the `dist/` directory named
 * by `BENCH_BEFORE_DIST`, e.g. a worktree of main built with `npm run build`.
 * Absent when the variable is not set.
 */
export async function loadBeforeSdk(): Promise<Sdk | undefined> {
  const dir = process.env.BENCH_BEFORE_DIST;
  if (dir === undefined || dir === '') return undefined;
  return (await import(pathToFileURL(`${dir.replace(/\/$/, '')}/index.js`).href)) as Sdk;
}
