/**
 * `scan --inventory` through the real binary with the walk on its own thread
 * (an inventory of 4 MiB or more) and without it (a smaller one): the same
 * rows, transitions and lookups either way.
 */
import { copyFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseSqlite } from '../../../src/cli/inventory/sqlite-driver.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { parseNdjson, runCli } from '../run-cli.js';

let dir: string;
let tree: string;
let sandbox: Sandbox;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scan-walk-thread-'));
  tree = join(dir, 'tree');
  await mkdir(join(tree, 'sub'), { recursive: true });
  for (let i = 0; i < 40; i += 1) await writeFile(join(tree, i % 2 === 0 ? 'sub' : '', `f${i}.txt`), `content ${i}`);
  // A name that is not UTF-8, and a link (skipped: a problem the thread reports).
  await writeFile(Buffer.concat([Buffer.from(`${tree}/`), Buffer.from([0x6f, 0xff, 0x64, 0x64])]), 'odd');
  await symlink(join(tree, 'f1.txt'), join(tree, 'link'));
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

function scan(db: string, args: readonly string[] = []) {
  return runCli(['scan', '--inventory', db, '-f', 'ndjson', '-v', ...args, tree], {
    env: { HASHSCAN_BASE_URL: sandbox.hashScanUrl, HASHSCAN_API_KEY: sandbox.apiKey },
  });
}

/** The rows, in path order (the order results arrive in is not the point). */
const rows = (stdout: string): Record<string, unknown>[] =>
  parseNdjson(stdout).sort((a, b) => String(a.pathBase64 ?? a.path).localeCompare(String(b.pathBase64 ?? b.path)));

/** Pages of a table made and dropped: the file stays large (free pages), its rows the same. */
async function pad(db: string): Promise<void> {
  const { open } = await chooseSqlite();
  const database = open(db);
  database.exec('CREATE TABLE pad (x BLOB); INSERT INTO pad VALUES (zeroblob(5000000)); DROP TABLE pad;');
  database.close();
}

describe('scan --inventory with the walk on its own thread', () => {
  it('reports what the walk on the main thread reports: unchanged, then new, modified and gone', async () => {
    const small = join(dir, 'small.db');
    const large = join(dir, 'large.db');
    const first = await scan(small);
    expect(first.code).toBe(0);
    copyFileSync(small, large);
    await pad(large);
    expect(statSync(large).size).toBeGreaterThanOrEqual(4 * 2 ** 20);
    expect(statSync(small).size).toBeLessThan(4 * 2 ** 20);

    const before = sandbox.requests.length;
    const [onThread, onMain] = [await scan(large), await scan(small)];
    expect(onThread.code).toBe(0);
    expect(sandbox.requests.length).toBe(before); // nothing asked: every answer is fresh
    expect(rows(onThread.stdout)).toEqual(rows(onMain.stdout));
    expect(rows(onThread.stdout).map((row) => row.change)).toEqual(Array(41).fill('unchanged'));
    expect(onThread.stderr).toContain('symbolic link not followed');

    await writeFile(join(tree, 'f3.txt'), 'content 3, longer now');
    await writeFile(join(tree, 'new.txt'), 'new');
    await unlink(join(tree, 'sub', 'f4.txt'));
    const [changedOnThread, changedOnMain] = [
      await scan(large, ['--changes-only']),
      await scan(small, ['--changes-only']),
    ];
    const changes = (stdout: string) => rows(stdout).map((row) => `${row.change} ${String(row.path).split('/').pop()}`);
    expect(changes(changedOnThread.stdout)).toEqual(['modified f3.txt', 'new new.txt', 'gone f4.txt']);
    expect(changes(changedOnMain.stdout)).toEqual(changes(changedOnThread.stdout));
  });
});
