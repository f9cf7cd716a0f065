// The import rule of the rooms: each room README's `May import:` line, checked against the import graph
// the architecture check builds (madge; `.ci/lib/architecture.mjs` runs it).
//
// - The rule is the one line that starts with `May import:` (prose may follow on the next lines). Its
//   backticked items are paths from `src/`: a folder (`config/`, `transport/http/`) allows every file
//   under it, a file (`index.ts`, `util/node-builtin.ts`) that file. `node:…` and `@scope/…` items
//   name modules outside `src/`, which the graph does not hold, and are skipped; "nothing outside this
//   room" is an empty list. An item naming no file or folder of `src/` is itself a problem, so a list
//   cannot drift by a rename.
// - A file is governed by the nearest README at or above its folder, up to its room (`src/<room>/`): a
//   sub-room with its own README (`transport/call/`) has its own rule, which replaces its parent's; a
//   folder without one (`cli/commands/`) inherits its parent's. Files at the root of `src/` (the
//   entries, the version) have no room and no rule.
// - A room may always import inside itself, its sub-rooms included (the folder of its README).
//
// Unit-tested in test/ci/import-rules.test.ts.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The items of a README's `May import:` line, or `undefined` when it has none. */
export function mayImport(markdown) {
  const line = markdown.split('\n').find((text) => text.startsWith('May import:'));
  if (line === undefined) return undefined;
  return [...line.matchAll(/`([^`]+)`/g)]
    .map((match) => match[1])
    .filter((item) => !item.startsWith('node:') && !item.startsWith('@'));
}

/** The folder of the README governing `file` (a path from src/), among `readmeFolders`; `undefined` at the root. */
function governingFolder(file, readmeFolders) {
  for (let folder = dirname(file); folder !== '.'; folder = dirname(folder)) {
    if (readmeFolders.has(folder)) return folder;
  }
  return undefined;
}

const allows = (item, target) => (item.endsWith('/') ? target.startsWith(item) : target === item);

/**
 * The imports of `graph` (file → imported files, paths from src/) that break the rules, and the rules'
 * own problems, as lines. `rules` maps a README's folder (`cli`, `transport/call`) to its items, or to
 * `undefined` when it has no `May import:` line; `exists(path)` tells whether a path of src/ exists.
 */
export function checkImportRules(graph, rules, exists) {
  const problems = [];
  for (const [folder, items] of rules) {
    if (items === undefined) {
      problems.push(`src/${folder}/README.md has no "May import:" line`);
      continue;
    }
    for (const item of items) {
      if (!exists(item)) problems.push(`src/${folder}/README.md may import \`${item}\`, which is not in src/`);
    }
  }
  const folders = new Set(rules.keys());
  for (const [file, imports] of Object.entries(graph)) {
    const folder = governingFolder(file, folders);
    if (folder === undefined) continue;
    const items = rules.get(folder) ?? [];
    for (const target of imports) {
      if (target.startsWith(`${folder}/`)) continue;
      if (!items.some((item) => allows(item, target))) {
        problems.push(`import outside the rule of src/${folder}/README.md: ${file} -> ${target}`);
      }
    }
  }
  return problems;
}

/** The rule of every README under src/ (but src/README.md), read from disk. */
export function readRules(src, files) {
  const rules = new Map();
  const candidates = new Set(files.flatMap((file) => ancestors(dirname(file))));
  for (const folder of [...candidates].sort()) {
    const readme = join(src, folder, 'README.md');
    if (existsSync(readme)) rules.set(folder, mayImport(readFileSync(readme, 'utf8')));
  }
  return rules;
}

function ancestors(folder) {
  const list = [];
  for (let at = folder; at !== '.'; at = dirname(at)) list.push(at);
  return list;
}
