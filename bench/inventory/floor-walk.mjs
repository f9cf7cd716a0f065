// A floor for the re-check (issue 34): a bare Node process that only walks the tree and takes each
// file's identity, names as bytes, the way the CLI's walking thread does (opendir, 256 entries a
// call, one statSync per file), and writes nothing. What `scan --inventory` cannot go below on one
// thread, whatever else it cuts.
// Usage: node bench/inventory/floor-walk.mjs TREE
import { opendirSync, statSync } from 'node:fs';

const SLASH = Buffer.from('/');
let files = 0;
function walk(dir) {
  const listing = opendirSync(dir, { bufferSize: 256, encoding: 'buffer' });
  try {
    for (let entry = listing.readSync(); entry !== null; entry = listing.readSync()) {
      const path = Buffer.concat([dir, SLASH, entry.name]);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && statSync(path, { throwIfNoEntry: false }) !== undefined) files += 1;
    }
  } finally {
    listing.closeSync();
  }
}
walk(Buffer.from(process.argv[2]));
if (files === 0) throw new Error('no file walked');
