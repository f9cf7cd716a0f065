import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ObjectInventory, type ObjectRecord } from '../../../../src/cli/inventory/objects/object-store.js';
import { chooseSqlite } from '../../../../src/cli/inventory/sqlite-driver.js';
import { Inventory } from '../../../../src/cli/inventory/store.js';
import { UsageError } from '../../../../src/cli/usage-error.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inventory-objects-'));
  path = join(dir, 'store.db');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const record: ObjectRecord = {
  identity: {
    bucket: 'uploads',
    key: 'a/odd key, "quoted"\n.bin',
    versionId: 'v1',
    etag: `${'c'.repeat(32)}-2`,
    size: 12,
    lastModified: '2026-01-02T03:04:05.000Z',
  },
  digests: { sha256: 'a'.repeat(64), md5: 'b'.repeat(32) },
  digestSource: 'download',
  algorithm: 'sha256',
  decision: 'block',
  answer: { verdict: 'malicious', source: 'x', firstSeen: '2024-01-01 00:00:00', lastSeen: undefined, checkedAtMs: 1 },
};

/** The inventory file as a run opens it: files' store first (creates and checks it), then the objects. */
async function open(): Promise<{ objects: ObjectInventory; files: Inventory }> {
  const driver = await chooseSqlite();
  const files = Inventory.open(path, driver.open, driver.name);
  return { objects: ObjectInventory.open(path, driver.open), files };
}

describe('the objects of an inventory file', () => {
  it('gives back what it was given, across a reopen, and forgets what is removed', async () => {
    const first = await open();
    first.objects.put(record);
    first.objects.put({ ...record, identity: { ...record.identity, key: 'gone.txt', versionId: undefined } });
    first.objects.close();
    first.files.close();
    const second = await open();
    const loaded = second.objects.load(path);
    expect(loaded.get('s3://uploads/a/odd key, "quoted"\n.bin')).toEqual(record);
    second.objects.remove({ ...record.identity, key: 'gone.txt' });
    second.objects.close();
    second.files.close();
    const third = await open();
    expect([...third.objects.load(path).keys()]).toEqual(['s3://uploads/a/odd key, "quoted"\n.bin']);
    third.objects.close();
    third.files.close();
  });

  it('refuses the file when a row does not check (edited by hand)', async () => {
    const first = await open();
    first.objects.put(record);
    first.objects.close();
    first.files.close();
    const { open: raw } = await chooseSqlite();
    const database = raw(path);
    database.prepare("UPDATE objects SET decision = 'allow'").run();
    database.close();
    const second = await open();
    expect(() => second.objects.load(path)).toThrow(UsageError);
    expect(() => second.objects.load(path)).toThrow(
      /its row for s3:\/\/uploads\/a\/odd key.*a decision its verdict does not give/s,
    );
    second.objects.close();
    second.files.close();
  });
});
