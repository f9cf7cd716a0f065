// Architecture gate: fails on any import cycle between files or between folders of src/
// (type-only imports included), on an import a room's README does not allow (`May import:`,
// see import-rules.mjs), and on any src/ file over the line limit.
// Usage: node .ci/lib/architecture.mjs   (npm run check:architecture)
//
// The size gate warns at WARN_LINES and fails only at MAX_LINES. A file past about 400 lines
// usually holds more than one idea, so the warning asks the reader to look; but a hard limit close
// to the warning shaped the code (files trimmed to 299 lines, helpers of a few lines split out to
// stay under it), so the failure sits well above, where a file is a heap whatever its subject.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import madge from 'madge';
import { checkImportRules, readRules } from './import-rules.mjs';

const WARN_LINES = 400;
const MAX_LINES = 600;
const root = join(dirname(new URL(import.meta.url).pathname), '..', '..');
const src = join(root, 'src');

const result = await madge(src, {
  fileExtensions: ['ts'],
  tsConfig: join(root, 'tsconfig.json'),
  // Type-only imports count: a cycle through types is still a cycle for a reader.
  detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
});
const graph = result.obj();
const problems = [];

for (const cycle of result.circular()) problems.push(`file cycle: ${cycle.join(' > ')} > ${cycle[0]}`);

// Folder graph: an edge from each file's folder to each imported file's folder. A file at the
// root of src/ (an entry point, the version) is a node of its own. A folder's subfolders are
// parts of its room: edges between a folder and its own ancestor or descendant are not counted,
// every other edge is (sibling rooms, sibling sub-rooms, rooms under different parents).
const folderOf = (file) => (file.includes('/') ? dirname(file) : file);
const nested = (a, b) => a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
const folders = new Map();
for (const [file, imports] of Object.entries(graph)) {
  const from = folderOf(file);
  if (!folders.has(from)) folders.set(from, new Map());
  for (const target of imports) {
    const to = folderOf(target);
    if (to === from || nested(from, to)) continue;
    const edges = folders.get(from);
    if (!edges.has(to)) edges.set(to, `${file} -> ${target}`);
  }
}
// Tarjan's strongly connected components: every component with more than one folder is a cycle.
let index = 0;
const stack = [];
const state = new Map();
const components = [];
const visit = (node) => {
  state.set(node, { index, low: index, onStack: true });
  index += 1;
  stack.push(node);
  for (const next of folders.get(node)?.keys() ?? []) {
    if (!state.has(next)) {
      visit(next);
      state.get(node).low = Math.min(state.get(node).low, state.get(next).low);
    } else if (state.get(next).onStack) {
      state.get(node).low = Math.min(state.get(node).low, state.get(next).index);
    }
  }
  if (state.get(node).low === state.get(node).index) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      state.get(member).onStack = false;
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component);
  }
};
for (const node of folders.keys()) if (!state.has(node)) visit(node);
for (const component of components) {
  const members = new Set(component);
  const edges = component.flatMap((from) =>
    [...folders.get(from)].filter(([to]) => members.has(to)).map(([, example]) => `    ${example}`),
  );
  problems.push(`folder cycle: ${component.sort().join(', ')}\n${edges.join('\n')}`);
}

problems.push(...checkImportRules(graph, readRules(src, Object.keys(graph)), (item) => existsSync(join(src, item))));

const warnings = [];
for (const file of Object.keys(graph)) {
  const lines = readFileSync(join(src, file), 'utf8').split('\n').length - 1;
  if (lines > MAX_LINES) problems.push(`too long: src/${file} has ${lines} lines (limit ${MAX_LINES})`);
  else if (lines > WARN_LINES)
    warnings.push(`long: src/${file} has ${lines} lines (more than one idea? warns over ${WARN_LINES})`);
}

for (const warning of warnings) console.warn(`warning: ${warning}`);
if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  console.error(`\n${problems.length} architecture problem(s) in src/`);
  process.exit(1);
}
console.log(
  `architecture: ${Object.keys(graph).length} files, no import cycle, every import within its room's rule, none over ${MAX_LINES} lines (${warnings.length} over ${WARN_LINES})`,
);
