/**
 * `scan --inventory` through the real binary: a real tree, a real SQLite
 * file reopened across runs, and a loopback sandbox whose records change
 * between runs (restarted on the same port) and which counts the lookups.
 */
import { createHash } from 'node:crypto';
import { existsSync, statSync, utimesSync } from 'node:fs';
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseSqlite } from '../../../src/cli/inventory/sqlite-driver.js';
import { recordFor, type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { parseCsv, parseNdjson, runCli } from '../run-cli.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

let dir: string;
let tree: string;
let db: string;
let sandbox: Sandbox | undefined;

/** (Re)starts the sandbox on the same port, flagging `flagged` contents: the service's records change between runs. */
async function service(flagged: readonly string[] = []): Promise<Sandbox> {
  const port = sandbox === undefined ? 0 : new URL(sandbox.hashScanUrl).port;
  await sandbox?.close();
  sandbox = await startSandbox({
    port: Number(port),
    hashScan: { records: flagged.map((content) => recordFor(content, { firstSeen: '2026-01-02 03:04:05' })) },
  });
  return sandbox;
}

/** The hashes the service was asked for since it started. */
const asked = (): string[] =>
  (sandbox?.requests ?? []).filter((r) => r.service === 'hashscan').map((r) => String(r.params.hash));

function scan(args: readonly string[]) {
  const s = sandbox as Sandbox;
  return runCli(['scan', '--inventory', db, '-f', 'ndjson', ...args, tree], {
    env: { HASHSCAN_BASE_URL: s.hashScanUrl, HASHSCAN_API_KEY: s.apiKey },
  });
}

/** Rows by file name (last path segment). */
function byName(stdout: string): Map<string, Record<string, unknown>> {
  return new Map(parseNdjson(stdout).map((row) => [String(row.path).split('/').pop() as string, row]));
}

/** Sets the time a file's answer was obtained, as if it had been answered then. */
async function answeredAt(name: string, epochMs: number): Promise<void> {
  const { open } = await chooseSqlite();
  const database = open(db);
  database.prepare('UPDATE files SET checked_at = ? WHERE path = ?').run(epochMs, Buffer.from(join(tree, name)));
  database.close();
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-inventory-'));
  tree = join(dir, 'tree');
  db = join(dir, 'files.db');
  await mkdir(join(tree, 'sub'), { recursive: true });
  await writeFile(join(tree, 'a.txt'), 'alpha');
  await writeFile(join(tree, 'sub', 'b.txt'), 'bravo');
  await writeFile(join(tree, 'c.txt'), 'charlie');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

afterAll(async () => {
  await sandbox?.close();
});

describe('scan --inventory', () => {
  it('reads and asks nothing for an unchanged tree, and reports new, modified and gone files', async () => {
    await service();
    // A whole-second mtime, so that it can be set back exactly after the content is replaced.
    const a = join(tree, 'a.txt');
    const whole = new Date('2026-06-01T00:00:00Z');
    utimesSync(a, whole, whole);
    const first = await scan([]);
    expect(first.code).toBe(0);
    expect([...byName(first.stdout).values()].map((row) => row.change)).toEqual(['new', 'new', 'new']);
    expect(asked().sort()).toEqual([sha256('alpha'), sha256('bravo'), sha256('charlie')].sort());

    // Same size, same mtime, same inode, other bytes: a file whose identity is unchanged is not read.
    const { ino } = statSync(a);
    await writeFile(a, 'ALPHA');
    utimesSync(a, whole, whole);
    expect(statSync(a).ino).toBe(ino);
    await service();
    const second = await scan([]);
    expect(second.code).toBe(0);
    const rows = byName(second.stdout);
    expect(rows.get('a.txt')).toMatchObject({
      change: 'unchanged',
      previousDecision: 'allow',
      sha256: sha256('alpha'),
    });
    expect([...rows.values()].every((row) => row.change === 'unchanged')).toBe(true);
    expect(asked()).toEqual([]);

    await writeFile(join(tree, 'c.txt'), 'charlie, longer now');
    await writeFile(join(tree, 'd.txt'), 'delta');
    await unlink(join(tree, 'sub', 'b.txt'));
    const third = await scan(['--changes-only']);
    expect(third.code).toBe(0);
    const changed = byName(third.stdout);
    expect(changed.get('c.txt')).toMatchObject({ change: 'modified', previousDecision: 'allow', decision: 'allow' });
    expect(changed.get('d.txt')).toMatchObject({ change: 'new', decision: 'allow' });
    expect(changed.get('b.txt')).toMatchObject({ change: 'gone', previousDecision: 'allow', sha256: sha256('bravo') });
    expect(changed.has('a.txt')).toBe(false);
    expect(third.stderr).toContain(
      '3 files: 0 block, 0 review, 3 allow; 1 new, 1 unchanged, 1 modified, 0 verdict, 1 gone',
    );
    expect(asked().sort()).toEqual([sha256('charlie, longer now'), sha256('delta')].sort());

    // Gone is said once: the inventory forgot it.
    const fourth = await scan(['--changes-only']);
    expect(fourth.stdout).toBe('');
  });

  it("an unchanged file's row, made from its stored record, is the row its lookup gave, field for field", async () => {
    await service(['bravo']);
    const first = await scan(['-a', 'sha256', '-a', 'md5']);
    await service(['bravo']);
    const second = await scan(['-a', 'sha256', '-a', 'md5']);
    expect(asked()).toEqual([]);
    expect(second.code).toBe(1);
    const before = byName(first.stdout);
    const after = byName(second.stdout);
    expect(after.get('b.txt')).toMatchObject({
      decision: 'block',
      source: expect.any(String),
      firstSeen: '2026-01-02 03:04:05',
    });
    for (const [name, row] of before) {
      const { change, ...fields } = row;
      expect(change).toBe('new');
      expect(after.get(name)).toEqual({ ...fields, change: 'unchanged', previousDecision: row.decision });
      // In the order of the CSV header, as every row.
      const order = ['decision', 'change', 'verdict', 'sha256', 'md5', 'size', 'detail', 'path', 'source'];
      const times = ['previousDecision', 'checkedAt', 'firstSeen', 'lastSeen'];
      expect(Object.keys(after.get(name) ?? {})).toEqual(
        [...order, ...times].filter((key) => key in (after.get(name) ?? {})),
      );
    }
    // A row edited by hand is refused whole, with the field that does not check: nothing scanned.
    const { open } = await chooseSqlite();
    const database = open(db);
    database.exec("UPDATE files SET size = -1 WHERE verdict = 'malicious'");
    database.close();
    const refused = await scan([]);
    expect(refused.code).toBe(64);
    expect(refused.stderr).toMatch(/row for .*b\.txt does not check: size:/);
    expect(refused.stdout).toBe('');
  });

  it('a clean hash the service flags between two runs: change verdict, previous allow, exit 1, or 3 with --fail-on new-block', async () => {
    await service();
    expect((await scan([])).code).toBe(0);
    // Answered two days ago: older than --max-age 1d, so asked again.
    for (const name of ['a.txt', 'c.txt', 'sub/b.txt']) await answeredAt(name, Date.now() - 2 * 86_400_000);
    await service(['bravo']);
    const flagged = await scan(['--max-age', '1d', '--fail-on', 'new-block']);
    expect(flagged.code).toBe(3);
    const row = byName(flagged.stdout).get('b.txt');
    expect(row).toMatchObject({
      change: 'verdict',
      previousDecision: 'allow',
      decision: 'block',
      verdict: 'malicious',
    });
    expect(row?.firstSeen).toBe('2026-01-02 03:04:05');
    expect(String(row?.checkedAt)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    // Next run: the block is old news; exit 1 still says a block is there, 3 only for a new one.
    const again = await scan(['--fail-on', 'new-block']);
    expect(again.code).toBe(1);
    expect(byName(again.stdout).get('b.txt')).toMatchObject({ change: 'unchanged', previousDecision: 'block' });
    expect((await scan([])).code).toBe(1);
  });

  it('--max-age asks again only the hashes answered longer ago, and gives their answer the time it was obtained', async () => {
    await service();
    const first = byName((await scan([])).stdout);
    const old = Date.UTC(2026, 0, 1, 12, 0, 0);
    await answeredAt('c.txt', old);
    await service();
    const fresh = await scan(['--max-age', '7d']);
    expect(asked()).toEqual([sha256('charlie')]);
    const rows = byName(fresh.stdout);
    expect(rows.get('c.txt')?.checkedAt).not.toBe('2026-01-01T12:00:00Z');
    expect(rows.get('a.txt')?.checkedAt).toBe(first.get('a.txt')?.checkedAt);

    // A stored answer keeps its own time.
    await answeredAt('a.txt', old);
    await service();
    const kept = await scan(['--max-age', '3650d']);
    expect(asked()).toEqual([]);
    expect(byName(kept.stdout).get('a.txt')?.checkedAt).toBe('2026-01-01T12:00:00Z');
  });

  it('reports transitions in csv and the table too', async () => {
    await service();
    await scan([]);
    await writeFile(join(tree, 'e.txt'), 'echo');
    const s = sandbox as Sandbox;
    const env = { HASHSCAN_BASE_URL: s.hashScanUrl, HASHSCAN_API_KEY: s.apiKey };
    const csv = await runCli(['scan', '--inventory', db, '-f', 'csv', '--changes-only', tree], { env });
    const [header, ...records] = parseCsv(csv.stdout);
    expect(header?.slice(0, 3)).toEqual(['decision', 'change', 'verdict']);
    expect(header).toContain('previousDecision');
    expect(header?.slice(-3)).toEqual(['checkedAt', 'firstSeen', 'lastSeen']);
    expect(records.map((record) => record[1])).toEqual(['new']);
    await writeFile(join(tree, 'e.txt'), 'echo, again');
    const table = await runCli(['scan', '--inventory', db, '--changes-only', tree], { env });
    expect(table.stdout.split('\n')[0]).toMatch(/^DECISION\s+CHANGE\s+VERDICT/);
    expect(table.stdout).toMatch(/allow\s+modified\s+not_detected/);
  });

  it('refuses what is not an inventory, and flags that need one, with exit 64', async () => {
    await service();
    await writeFile(db, 'not a database at all, just text that is long enough to be looked at\n'.repeat(20));
    const notSqlite = await scan([]);
    expect(notSqlite.code).toBe(64);
    expect(notSqlite.stderr).toContain(`--inventory ${db} cannot be used`);
    expect(notSqlite.stdout).toBe('');
    const alone = await runCli(['scan', '--sandbox', '--changes-only', tree]);
    expect(alone.code).toBe(64);
    expect(alone.stderr).toContain('--changes-only needs --inventory FILE');
    const badAge = await runCli(['scan', '--sandbox', '--inventory', join(dir, 'x.db'), '--max-age', '0s', tree]);
    expect(badAge.code).toBe(64);
    expect(badAge.stderr).toContain('--max-age must be a duration from 1s to 3650d (as 90s, 15m, 12h or 7d), got "0s"');
    // The inventory reports gone files below named roots and locations: a list is refused, nothing sent.
    const listed = await runCli(['scan', '--sandbox', '--inventory', join(dir, 'y.db'), '-0'], { input: '' });
    expect(listed.code).toBe(64);
    expect(listed.stderr).toContain('--inventory takes folders, files and s3:// locations as arguments');
  });

  it('a usage error of the connection creates no inventory file: no API key, a bad --timeout or --redis-timeout', async () => {
    const s = await service();
    const fresh = join(dir, 'never.db');
    const noKey = await runCli(['scan', '--inventory', fresh, tree], { env: { HASHSCAN_BASE_URL: s.hashScanUrl } });
    expect(noKey.code).toBe(64);
    expect(noKey.stderr).toContain('missing API key');
    expect(existsSync(fresh)).toBe(false);
    const env = { HASHSCAN_BASE_URL: s.hashScanUrl, HASHSCAN_API_KEY: s.apiKey };
    const badTimeout = await runCli(['scan', '--inventory', fresh, '--timeout', 'soon', tree], { env });
    expect(badTimeout.code).toBe(64);
    expect(badTimeout.stderr).toContain('--timeout must be');
    expect(existsSync(fresh)).toBe(false);
    const badRedis = await runCli(
      ['scan', '--inventory', fresh, '--redis', 'redis://127.0.0.1:1', '--redis-timeout', '0s', tree],
      { env },
    );
    expect(badRedis.code).toBe(64);
    expect(badRedis.stderr).toContain('--redis-timeout');
    expect(existsSync(fresh)).toBe(false);
    expect(asked()).toEqual([]);
  });
});
