/**
 * The Redis pairing the README tells users to install is the one the real-Redis tests
 * (redis.test.ts) run: the same majors, and a pair npm installs without a peer conflict.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The pairing is given in the operating guide (docs/operating.md, "A verdict cache shared by replicas").
const README = readFileSync(new URL('../../../docs/operating.md', import.meta.url), 'utf8');
// Read from node_modules: neither package exports its package.json.
const manifest = (name: string): { version: string; peerDependencies?: Record<string, string> } =>
  JSON.parse(readFileSync(new URL(`../../../node_modules/${name}/package.json`, import.meta.url), 'utf8'));
const keyv = manifest('keyv');
const adapter = manifest('@keyv/redis');
const major = (version: string): number => Number(version.split('.')[0]);

describe('shared-cache store pairing', () => {
  it('the README installs the keyv and @keyv/redis majors the real-Redis tests use', () => {
    const install = /npm install keyv@(\d+) @keyv\/redis@(\d+)/.exec(README);
    expect(install, 'the README names both majors').not.toBeNull();
    expect(Number(install?.[1])).toBe(major(keyv.version));
    expect(Number(install?.[2])).toBe(major(adapter.version));
  });

  it("the tested keyv satisfies @keyv/redis's peer range (no ERESOLVE for users)", () => {
    const range = adapter.peerDependencies?.keyv ?? '';
    const caret = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(range);
    expect(caret, `expected a ^x.y.z peer range, got ${range}`).not.toBeNull();
    const [have, want] = [keyv.version, range.slice(1)].map((v) => v.split('.').map(Number)) as [number[], number[]];
    expect(have[0]).toBe(want[0]);
    expect(have[1] ?? 0).toBeGreaterThanOrEqual(want[1] ?? 0);
  });
});
