import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseSqlite } from '../../../src/cli/inventory/sqlite-driver.js';
import { entryOf, Inventory, type InventoryEntry } from '../../../src/cli/inventory/store.js';
import { UsageError } from '../../../src/cli/usage-error.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inventory-store-'));
  path = join(dir, 'files.db');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const entry: InventoryEntry = {
  path: Buffer.from([0x2f, 0x74, 0xff, 0x0a]), // "/t\xff\n": a name that is not UTF-8
  identity: { size: 5, mtimeMs: 1_700_000_000_123.456, ino: 42, dev: 2049 },
  digests: { sha256: 'a'.repeat(64), md5: 'b'.repeat(32) },
  algorithm: 'sha256',
  decision: 'block',
  answer: {
    verdict: 'malicious',
    source: 'x',
    firstSeen: '2024-01-01 00:00:00',
    lastSeen: undefined,
    checkedAtMs: 1_700_000_000_000,
  },
};

async function open(): Promise<Inventory> {
  const driver = await chooseSqlite();
  return Inventory.open(path, driver.open, driver.name);
}

describe('the inventory file', () => {
  it('gives back what it was given, path bytes and times exact, across a reopen', async () => {
    const inventory = await open();
    inventory.put(entry);
    inventory.close();
    const again = await open();
    const rows = again.load(path);
    again.close();
    expect([...rows.values()].map(entryOf)).toEqual([entry]);
    expect(rows.get(entry.path.toString('hex'))?.[0]).toBe(entry.path.toString('hex'));
  });

  it('refuses a row that does not check, another schema, or an SQLite file of something else (exit 64)', async () => {
    const inventory = await open();
    inventory.put(entry);
    inventory.close();
    const driver = await chooseSqlite();
    const edit = (sql: string): void => {
      const db = driver.open(path);
      db.exec(sql);
      db.close();
    };
    edit("UPDATE files SET decision = 'allow'");
    const edited = await open();
    expect(() => edited.load(path)).toThrow(UsageError);
    expect(() => edited.load(path)).toThrow(
      /row for \/t\\xff\\x0a does not check: .*a decision its verdict does not give/,
    );
    edited.close();
    edit("UPDATE files SET decision = 'block', checked_at = NULL");
    const noTime = await open();
    expect(() => noTime.load(path)).toThrow(/an answer without its time/);
    noTime.close();
    edit("UPDATE meta SET value = '2' WHERE key = 'schema'");
    await expect(open()).rejects.toThrow(/schema 2, this version reads 1/);
    const other = join(dir, 'other.db');
    const db = driver.open(other);
    db.exec('CREATE TABLE t (x INTEGER)');
    db.close();
    path = other;
    await expect(open()).rejects.toThrow(/an SQLite file that is not an inventory/);
  });
});
