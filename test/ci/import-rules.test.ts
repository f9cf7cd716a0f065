import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkImportRules, mayImport, readRules } from '../../.ci/lib/import-rules.mjs';
import { useTempDir } from '../helpers/temp-dir.js';

const temp = useTempDir('import-rules-');

/** A src/ folder of `files` (path → text) in a fresh temp dir. */
function source(files: Record<string, string>): string {
  const root = mkdtempSync(join(temp, 'src-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

// A fixture house: `client/` with a sub-room `client/signing/` of its own rule and a folder `client/parts/`
// without a README; `store/`, `util/`, `errors/`; `index.ts` at the root.
const EXISTING = new Set(['client/', 'store/', 'util/', 'errors/', 'util/crypto.ts', 'index.ts', 'version.ts']);
const exists = (path: string) => EXISTING.has(path);
const RULES = new Map<string, string[] | undefined>([
  ['client', ['store/', 'util/', 'errors/']],
  ['client/signing', ['util/crypto.ts']],
  ['store', []],
  ['util', []],
]);

describe('room import rules (.ci/lib/import-rules.mjs)', () => {
  it("reads the backticked items of the one `May import:` line, not the prose after it nor outside modules'", () => {
    expect(
      mayImport(
        '# x/\n\nProse naming `y/`.\n\nMay import: `a/`, `b/c.ts` and `node:fs`, `@scope/pkg`.\nImported by `d/`.\n',
      ),
    ).toEqual(['a/', 'b/c.ts']);
    expect(mayImport('May import: nothing outside this room.')).toEqual([]);
    expect(mayImport('# x/\n\nImports `a/`.')).toBeUndefined();
  });

  it('passes imports inside the room, into its sub-rooms, and those its rule lists', () => {
    const graph = {
      'index.ts': ['client/client.ts', 'version.ts'],
      'client/client.ts': ['client/parts/part.ts', 'client/signing/sign.ts', 'store/store.ts', 'errors/e.ts'],
      'client/parts/part.ts': ['util/sleep.ts', 'client/client-types.ts'],
      'client/signing/sign.ts': ['util/crypto.ts', 'client/signing/hmac.ts'],
      'store/store.ts': ['store/lru/lru.ts'],
    };
    expect(checkImportRules(graph, RULES, exists)).toEqual([]);
  });

  it('fails on an edge outside the rule, a sub-room reaching past its own rule, and a rule that names nothing', () => {
    const graph = {
      'store/store.ts': ['client/client.ts'],
      // client/parts/ has no README: it is held to client/'s rule.
      'client/parts/part.ts': ['index.ts'],
      // client/signing/ has its own rule, which replaces client/'s: neither its parent room nor util/sleep.ts.
      'client/signing/sign.ts': ['client/client.ts', 'util/sleep.ts', 'util/crypto.ts'],
    };
    const rules = new Map(RULES).set('util', ['gone/']).set('errors', undefined);
    expect(checkImportRules(graph, rules, exists)).toEqual([
      'src/util/README.md may import `gone/`, which is not in src/',
      'src/errors/README.md has no "May import:" line',
      'import outside the rule of src/store/README.md: store/store.ts -> client/client.ts',
      'import outside the rule of src/client/README.md: client/parts/part.ts -> index.ts',
      'import outside the rule of src/client/signing/README.md: client/signing/sign.ts -> client/client.ts',
      'import outside the rule of src/client/signing/README.md: client/signing/sign.ts -> util/sleep.ts',
    ]);
  });

  it('reads the rules of the READMEs above each file, from disk', () => {
    const src = source({
      'client/README.md': '# client/\n\nMay import: `store/`.\n',
      'client/parts/part.ts': '',
      'client/signing/README.md': '# signing\n',
      'client/signing/sign.ts': '',
    });
    expect(readRules(src, ['client/parts/part.ts', 'client/signing/sign.ts', 'index.ts'])).toEqual(
      new Map([
        ['client', ['store/']],
        ['client/signing', undefined],
      ]),
    );
  });
});
