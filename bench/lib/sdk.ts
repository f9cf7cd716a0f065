import { fileURLToPath, pathToFileURL } from 'node:url';

/** The package as users get it: the build in dist/, typed from the sources. */
export type Sdk = typeof import('../../src/index.js');

export const DIST_ESM = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
export const DIST_CJS = fileURLToPath(new URL('../../dist/index.cjs', import.meta.url));

export async function loadSdk(): Promise<Sdk> {
  return (await import(pathToFileURL(DIST_ESM).href)) as Sdk;
}
