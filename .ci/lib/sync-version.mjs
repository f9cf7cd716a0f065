// After `changeset version` bumped package.json, writes the same version into
// src/version.ts (the User-Agent version, which a test keeps equal to package.json).
// Usage: node .ci/lib/sync-version.mjs   (run by `npm run version-packages`)
import { readFileSync, writeFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const path = 'src/version.ts';
const source = readFileSync(path, 'utf8');
const updated = source.replace(/export const VERSION = '[^']*';/, `export const VERSION = '${version}';`);
if (!updated.includes(`export const VERSION = '${version}';`)) {
  console.error(`${path}: no \`export const VERSION = '…';\` line to update`);
  process.exit(1);
}
if (updated !== source) writeFileSync(path, updated);
console.log(`${path}: VERSION = '${version}'`);
