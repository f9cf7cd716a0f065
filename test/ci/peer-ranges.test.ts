/**
 * Each optional peer's range admits every major the repository tests against (the devDependencies and
 * their `name6`-style aliases): a project on a tested major installs the package without ERESOLVE.
 * .ci/run proves it with real installs (the msw2, msw3 and ioredis6 consumer projects).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { satisfies } = require('semver') as { satisfies(version: string, range: string): boolean };

interface Manifest {
  readonly peerDependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
}
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as Manifest;

/** The installed version of a devDependency (by its own name or its alias). */
function installed(name: string): string {
  const path = require.resolve(`${name}/package.json`, { paths: [new URL('../../', import.meta.url).pathname] });
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}

/** The devDependencies that install `peer`: itself, and aliases `npm:peer@…`. */
function testedCopies(peer: string): string[] {
  return Object.entries(manifest.devDependencies)
    .filter(([name, spec]) => name === peer || spec.startsWith(`npm:${peer}@`))
    .map(([name]) => name);
}

describe('peer ranges admit every major the tests run against', () => {
  it.each(['ioredis', 'msw'])('%s', (peer) => {
    const copies = testedCopies(peer);
    expect(copies.length, `${peer} is tested in more than one major`).toBeGreaterThan(1);
    for (const copy of copies) {
      const version = installed(copy);
      expect(satisfies(version, manifest.peerDependencies[peer] ?? ''), `${copy}@${version}`).toBe(true);
    }
  });
});
