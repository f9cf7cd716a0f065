/**
 * `InventoryRun` over a real SQLite inventory: a file the walk met is never
 * `gone`, even when its identity could not be taken when it was met (it was
 * replaced then, `rm f; cp new f`) and it was read afterwards. With the walk
 * on its own thread the `stat` can come long before the read.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InventoryRun } from '../../../src/cli/inventory/inventory-run.js';
import type { HashAlgorithm, HashedFile } from '../../../src/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inventory-run-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SHA256 = 'a'.repeat(64);

async function open(db: string, root: string): Promise<InventoryRun> {
  return InventoryRun.open(db, { roots: [root], algorithms: ['sha256'], maxAgeMs: 60_000 });
}

function read(path: Buffer): HashedFile<HashAlgorithm, Buffer> {
  return { index: 0, path, size: 3, digests: { sha256: SHA256 } as HashedFile<HashAlgorithm, Buffer>['digests'] };
}

describe('InventoryRun', () => {
  it('never reports gone a file met without an identity and then read', async () => {
    const db = join(dir, 'inventory.db');
    const root = join(dir, 'tree');
    const path = Buffer.from(join(root, 'f'));
    const identity = { size: 3, mtimeMs: 1_700_000_000_123.456, ino: 42, dev: 7 };

    const first = await open(db, root);
    expect(first.plan(path, identity)).toEqual({ kind: 'hash' });
    first.settle(read(path), { verdict: 'not_detected' }, 'allow', Date.now()).record();
    expect([...first.gone()]).toEqual([]);
    first.close();

    // Met again, its `stat` failed (replaced at that instant), then read in full: it is there.
    const second = await open(db, root);
    expect(second.plan(path, undefined)).toEqual({ kind: 'hash' });
    second.settle(read(path), { verdict: 'not_detected' }, 'allow', Date.now()).record();
    expect([...second.gone()].map(({ entry }) => entry.path.toString())).toEqual([]);
    second.close();
  });
});
