/**
 * The built root entry imports no Node built-in (with or without the `node:` prefix), through any
 * chunk it loads: a Worker without `nodejs_compat` could not bundle it. Node built-ins are reached
 * at run time through `process.getBuiltinModule` (`src/util/node-builtin.ts`) instead. The Worker
 * test bundles the sources; this one reads what the build writes, where a bundled dependency's own
 * imports end up too (lru-cache's `node` build imports `node:diagnostics_channel`).
 */
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIBRARY_DIR as OUT_DIR } from '../build-library.js';

const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Every static `import … from '…'` and `export … from '…'` of a file, and of the chunks it imports, by file. */
function staticImports(file: string, seen = new Map<string, string[]>()): Map<string, string[]> {
  if (seen.has(file)) return seen;
  const source = readFileSync(join(OUT_DIR, file), 'utf8');
  const specifiers = [...source.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+['"]([^'"]+)['"]/gm)].map(
    (match) => match[1] as string,
  );
  const bare = [...source.matchAll(/^import\s+['"]([^'"]+)['"]/gm)].map((match) => match[1] as string);
  seen.set(file, [...specifiers, ...bare]);
  for (const specifier of [...specifiers, ...bare]) {
    if (specifier.startsWith('./')) staticImports(specifier.slice(2), seen);
  }
  return seen;
}

describe('the built root entry (ESM)', () => {
  it('imports no Node built-in, in any chunk it loads', () => {
    const found = staticImports('index.js');
    expect(found.size).toBeGreaterThan(1); // the entry and its chunks were read
    const builtins = [...found].flatMap(([file, specifiers]) =>
      specifiers.filter((specifier) => BUILTINS.has(specifier)).map((specifier) => `${file}: ${specifier}`),
    );
    expect(builtins).toEqual([]);
  });
});
