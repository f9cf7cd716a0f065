import { describe, expect, it } from 'vitest';
import { chooseSqlite, type SqliteDatabase } from '../../../src/cli/inventory/sqlite-driver.js';
import { UsageError } from '../../../src/cli/usage-error.js';

const fake = (name: string) => (): SqliteDatabase => ({
  exec: () => {},
  prepare: () => ({ run: () => name, all: () => [] }),
  close: () => {},
});
const missing = Object.assign(new Error("Cannot find package 'better-sqlite3'"), { code: 'ERR_MODULE_NOT_FOUND' });

describe('the SQLite driver of --inventory', () => {
  it('takes node:sqlite where the runtime has it, better-sqlite3 otherwise', async () => {
    const both = await chooseSqlite({ builtin: () => fake('builtin'), betterSqlite3: async () => fake('better') });
    expect(both.name).toBe('node:sqlite');
    const older = await chooseSqlite({ builtin: () => undefined, betterSqlite3: async () => fake('better') });
    expect(older.name).toBe('better-sqlite3');
  });

  it('without either, a usage error that says how to get one', async () => {
    const none = chooseSqlite({ builtin: () => undefined, betterSqlite3: () => Promise.reject(missing) });
    await expect(none).rejects.toBeInstanceOf(UsageError);
    await expect(none).rejects.toThrow(/Node 22\.13 or later .*npm install better-sqlite3@12/);
  });

  it('on this runtime: node:sqlite from Node 22.13 (and 23.4) on, better-sqlite3 before', async () => {
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    const builtin = major > 23 || (major === 23 && minor >= 4) || (major === 22 && minor >= 13);
    const driver = await chooseSqlite();
    expect(driver.name).toBe(builtin ? 'node:sqlite' : 'better-sqlite3');
    const db = driver.open(':memory:');
    expect(db.prepare('SELECT 1 + 1 AS two').all()).toEqual([{ two: 2 }]);
    db.close();
  });
});
