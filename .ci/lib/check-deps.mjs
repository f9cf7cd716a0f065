// Checks that package.json declares exactly the five runtime dependencies the
// package is meant to have, so nothing else is installed into consumers' trees.
// Usage: node .ci/lib/check-deps.mjs
import { readFileSync } from 'node:fs';

// libphonenumber-js: phone numbers as E.164 identities (SmsClient, OtpVerifier), bundled like ky and zod.
const EXPECTED = ['@noble/hashes', 'ky', 'libphonenumber-js', 'lru-cache', 'zod'];
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const actual = Object.keys(manifest.dependencies ?? {}).sort();
const problems = [];

const extra = actual.filter((name) => !EXPECTED.includes(name));
const missing = EXPECTED.filter((name) => !actual.includes(name));
if (extra.length > 0) problems.push(`unexpected runtime dependencies: ${extra.join(', ')}`);
if (missing.length > 0) problems.push(`missing runtime dependencies: ${missing.join(', ')}`);
for (const field of ['bundleDependencies', 'bundledDependencies']) {
  if (manifest[field] !== undefined) problems.push(`${field} is set`);
}
// A peer dependency that is not optional would be installed into every consumer (npm 7+).
for (const name of Object.keys(manifest.peerDependencies ?? {})) {
  if (manifest.peerDependenciesMeta?.[name]?.optional !== true)
    problems.push(`peer dependency ${name} is not optional`);
}

if (problems.length > 0) {
  console.error(problems.map((problem) => `  - ${problem}`).join('\n'));
  process.exit(1);
}
const peers = Object.keys(manifest.peerDependencies ?? {});
console.log(
  `runtime dependencies: ${actual.join(', ')}${peers.length > 0 ? `; optional peers: ${peers.join(', ')}` : ''}`,
);
