/**
 * A fresh clone with nothing beside it passes its own tests: no test, benchmark or example reads a path
 * outside the repository (the signing vectors are a fixture, test/fixtures/), and each fixture still has
 * the digest its provenance line in test/fixtures/README.md records.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCANNED = ['test', 'bench', 'examples'];
const SOURCE = /\.(?:[cm]?[jt]s|json|sh)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => !path.split(sep).includes('node_modules') && !path.split(sep).includes('.tmp'));
}

/** Relative paths quoted in `text` (`'../x'`, `"./y"`, `` `../z` ``) that point outside the repository from `file`. */
function escapingPaths(file: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/['"`]((?:\.\.?\/)+[^'"`$\n]*)['"`]/g)) {
    const path = match[1] ?? '';
    const target = resolve(dirname(file), path);
    if (relative(ROOT, target).startsWith('..')) found.push(path);
  }
  // The specifications' folder beside a checkout, however it is spelled.
  for (const match of text.matchAll(/[^\n]*\bshared\/spec\b[^\n]*/g)) found.push(match[0].trim());
  return found;
}

describe('the repository holds everything its tests need', () => {
  it('finds an escaping path where there is one (the checker can fail)', () => {
    const file = join(ROOT, 'test/sms/example.test.ts');
    expect(escapingPaths(file, "new URL('../../../shared/spec/signing-vectors.json', import.meta.url)")).toHaveLength(
      2,
    );
    expect(escapingPaths(file, "new URL('../../package.json', import.meta.url)")).toEqual([]);
    expect(escapingPaths(file, "import { x } from '../../src/index.js'")).toEqual([]);
  });

  it.each(SCANNED)('no file under %s/ reads outside the repository', (dir) => {
    const self = fileURLToPath(import.meta.url);
    const escapes = filesUnder(dir)
      .filter((file) => file !== self)
      .flatMap((file) =>
        escapingPaths(file, readFileSync(file, 'utf8')).map((path) => `${relative(ROOT, file)}: ${path}`),
      );
    expect(escapes).toEqual([]);
  });

  it('each fixture has the sha256 of its provenance line', () => {
    const readme = readFileSync(join(ROOT, 'test/fixtures/README.md'), 'utf8');
    const rows = [...readme.matchAll(/^\| `([^`]+)` \|.*\| `([0-9a-f]{64})` \|$/gm)];
    expect(rows.length).toBeGreaterThan(0);
    for (const [, name = '', digest] of rows) {
      const bytes = readFileSync(join(ROOT, 'test/fixtures', name));
      expect(createHash('sha256').update(bytes).digest('hex'), name).toBe(digest);
    }
  });
});
