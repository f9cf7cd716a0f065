// Checks the file list of the packed tarball (the JSON `npm pack --json` printed).
// Usage: node .ci/lib/check-pack.mjs <npm-pack.json>
//
// Fails when the tarball holds anything but package.json, README, LICENSE,
// CHANGELOG and dist/; holds tests, test source maps or dotfiles; lacks a file
// that package.json points to; ships a source map whose sources include tests; or
// comes from a package.json without `repository`, `homepage` or `bugs`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// `prepack` (the build) prints to the same stdout as `npm pack --json`: the report is the array that
// starts on a line of its own after the build's output.
const printed = readFileSync(process.argv[2], 'utf8');
const [report] = JSON.parse(printed.slice(Math.max(0, printed.search(/^\[\s*$/m))));
const files = report.files.map((file) => file.path);
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const problems = [];

const ALLOWED_TOP_LEVEL = /^(package\.json|README(\.md)?|LICEN[CS]E(\.md|\.txt)?|CHANGELOG\.md)$/i;
const TEST_PATH = /(^|\/)(tests?|__tests__|__mocks__|fixtures?)\/|\.(test|spec|bench)\.[cm]?[jt]sx?(\.map)?$/;

for (const path of files) {
  if (path.split('/').some((segment) => segment.startsWith('.'))) problems.push(`dotfile: ${path}`);
  if (TEST_PATH.test(path)) problems.push(`test file or test source map: ${path}`);
  if (!path.startsWith('dist/') && !ALLOWED_TOP_LEVEL.test(path))
    problems.push(`not part of the published surface: ${path}`);
  if (/\.(tgz|tsbuildinfo|log)$/.test(path)) problems.push(`build leftover: ${path}`);
}

// The registry's page links to the repository, its issues and its home page only when package.json names them.
for (const field of ['repository', 'homepage', 'bugs']) {
  if (manifest[field] === undefined) problems.push(`package.json has no \`${field}\` (the registry's page shows none)`);
}

// Every file package.json points to must be in the tarball.
const targets = new Set();
const collect = (value) => {
  if (typeof value === 'string') targets.add(value.replace(/^\.\//, ''));
  else if (value && typeof value === 'object') for (const inner of Object.values(value)) collect(inner);
};
collect(manifest.exports);
for (const field of ['main', 'module', 'types', 'typings']) collect(manifest[field]);
for (const target of targets) {
  if (target.includes('*')) continue;
  if (!files.includes(target)) problems.push(`package.json points to ${target}, which is not in the tarball`);
}

// Source maps must map the published sources only, never tests.
for (const path of files.filter((file) => file.endsWith('.map'))) {
  const map = JSON.parse(readFileSync(join(process.cwd(), path), 'utf8'));
  for (const source of map.sources ?? []) {
    if (/(^|\/)(test|tests|__tests__)\//.test(source) || /\.(test|spec)\.[cm]?[jt]sx?$/.test(source)) {
      problems.push(`${path} maps a test source: ${source}`);
    }
  }
}

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
console.log(
  `${report.filename}: ${files.length} files, ${kib(report.size)} packed, ${kib(report.unpackedSize)} unpacked`,
);
for (const file of report.files) console.log(`  ${file.path.padEnd(28)} ${kib(file.size).padStart(10)}`);
if (problems.length > 0) {
  console.error(`\nThe tarball is not clean:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  process.exit(1);
}
console.log('tarball contents ok: dist/ and package metadata only; no tests, test maps or dotfiles');
