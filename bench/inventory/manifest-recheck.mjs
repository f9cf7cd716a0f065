// The manifest approach a careful operator writes (issue 34): a JSON manifest of path → size,
// mtime and SHA-256; each run walks the tree, stats every file, rehashes only those whose size or
// mtime changed, and writes the manifest back. It looks nothing up: the figure is its floor.
// Usage: node bench/inventory/manifest-recheck.mjs MANIFEST TREE
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [manifestPath, tree] = process.argv.slice(2);
const previous = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : {};
const next = {};
let rehashed = 0;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

const hash = (path) =>
  new Promise((resolve, reject) => {
    const digest = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => digest.update(chunk))
      .on('end', () => resolve(digest.digest('hex')))
      .on('error', reject);
  });

for (const path of files(tree)) {
  const { size, mtimeMs } = statSync(path);
  const known = previous[path];
  if (known !== undefined && known.size === size && known.mtimeMs === mtimeMs) next[path] = known;
  else {
    rehashed += 1;
    next[path] = { size, mtimeMs, sha256: await hash(path) };
  }
}
writeFileSync(manifestPath, JSON.stringify(next));
process.stdout.write(`${Object.keys(next).length} files, ${rehashed} rehashed\n`);
