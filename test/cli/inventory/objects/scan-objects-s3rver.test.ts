/**
 * `scan --inventory FILE s3://…` through the real binary against s3rver (a
 * real S3-protocol server), with a real SQLite file reopened across runs and
 * a loopback sandbox whose records change between runs.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { chooseSqlite } from '../../../../src/cli/inventory/sqlite-driver.js';
import { recordFor, type Sandbox, startSandbox } from '../../../../src/sandbox/index.js';
import { type S3Server, s3rverClient, startS3rver } from '../../../helpers/s3rver.js';
import { parseNdjson, runCli } from '../../run-cli.js';

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

let server: S3Server;
let client: S3Client;
let sandbox: Sandbox | undefined;
let dir: string;
let db: string;

/** (Re)starts the sandbox on the same port, flagging `flagged` contents: the service's records change between runs. */
async function service(flagged: readonly string[] = []): Promise<void> {
  const port = sandbox === undefined ? 0 : Number(new URL(sandbox.hashScanUrl).port);
  await sandbox?.close();
  sandbox = await startSandbox({
    port,
    hashScan: { records: flagged.map((content) => recordFor(content, { firstSeen: '2026-01-02 03:04:05' })) },
  });
}

/** The hashes the service was asked for since it started. */
const asked = (): string[] =>
  (sandbox?.requests ?? []).filter((r) => r.service === 'hashscan').map((r) => String(r.params.hash));

const put = (key: string, body: string) => client.send(new PutObjectCommand({ Bucket: 'inv', Key: key, Body: body }));

function scan(args: readonly string[] = []) {
  const s = sandbox as Sandbox;
  return runCli(
    ['scan', '--inventory', db, '-f', 'ndjson', '--endpoint-url', server.endpoint, ...args, 's3://inv/docs/'],
    { env: { ...server.env, HASHSCAN_BASE_URL: s.hashScanUrl, HASHSCAN_API_KEY: s.apiKey } },
  );
}

/** Rows by key (the part after `s3://inv/docs/`). */
const byKey = (stdout: string): Map<string, Record<string, unknown>> =>
  new Map(parseNdjson(stdout).map((row) => [String(row.path).replace('s3://inv/docs/', ''), row]));

beforeAll(async () => {
  server = await startS3rver(['inv']);
  vi.stubEnv('AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED', 'true');
  client = s3rverClient(server);
}, 30_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  client?.destroy();
  await sandbox?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = await mkdtemp(join(tmpdir(), 'cli-inventory-s3-'));
  db = join(dir, 'store.db');
  for (const key of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) {
    await client.send(new DeleteObjectCommand({ Bucket: 'inv', Key: `docs/${key}` }));
  }
  await put('docs/a.txt', 'alpha');
  await put('docs/b.txt', 'bravo');
  await put('docs/c.txt', 'charlie');
});

describe('scan --inventory s3:// against s3rver', { timeout: 30_000 }, () => {
  it('reuses recorded digests and answers, and reports modified, new and gone objects', async () => {
    await service();
    const first = await scan();
    expect(first.code).toBe(0);
    const firstRows = byKey(first.stdout);
    expect([...firstRows.keys()].sort()).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect([...firstRows.values()].every((row) => row.change === 'new' && row.digestSource === 'etag-md5')).toBe(true);
    expect(asked().sort()).toEqual([md5('alpha'), md5('bravo'), md5('charlie')].sort());
    expect(first.stderr).toContain(
      '3 objects: 0 checksum-sha256, 3 etag-md5, 0 download, 0 failed; 0 from the inventory',
    );

    // Nothing changed: every object is the recorded one, nothing asked, digestSource as recorded.
    await service();
    const second = await scan();
    expect(second.code).toBe(0);
    const rows = byKey(second.stdout);
    expect(rows.get('a.txt')).toMatchObject({
      change: 'unchanged',
      previousDecision: 'allow',
      digestSource: 'etag-md5',
      md5: md5('alpha'),
      checkedAt: firstRows.get('a.txt')?.checkedAt,
    });
    expect([...rows.values()].every((row) => row.change === 'unchanged')).toBe(true);
    expect(asked()).toEqual([]);
    expect(second.stderr).toContain('3 etag-md5, 0 download, 0 failed; 3 from the inventory (not looked at)');

    // Rewritten, added, deleted.
    await put('docs/b.txt', 'bravo, rewritten');
    await put('docs/d.txt', 'delta');
    await client.send(new DeleteObjectCommand({ Bucket: 'inv', Key: 'docs/c.txt' }));
    await service();
    const third = await scan(['--changes-only']);
    expect(third.code).toBe(0);
    const changed = byKey(third.stdout);
    expect(changed.get('b.txt')).toMatchObject({
      change: 'modified',
      previousDecision: 'allow',
      md5: md5('bravo, rewritten'),
    });
    expect(changed.get('d.txt')).toMatchObject({ change: 'new', decision: 'allow' });
    expect(changed.get('c.txt')).toMatchObject({ change: 'gone', previousDecision: 'allow', md5: md5('charlie') });
    expect(changed.has('a.txt')).toBe(false);
    expect(asked().sort()).toEqual([md5('bravo, rewritten'), md5('delta')].sort());
    expect(third.stderr).toContain(
      '3 objects: 0 block, 0 review, 3 allow; 1 new, 1 unchanged, 1 modified, 0 verdict, 1 gone',
    );

    // Gone is said once: the inventory forgot it.
    await service();
    expect((await scan(['--changes-only'])).stdout).toBe('');
  });

  it('a clean object the service flags between runs: change verdict, previousDecision allow, exit 3 with --fail-on new-block', async () => {
    await service();
    expect((await scan()).code).toBe(0);
    // Answered two days ago: older than --max-age 1d, so asked again.
    const { open } = await chooseSqlite();
    const database = open(db);
    database.prepare('UPDATE objects SET checked_at = ?').run(Date.now() - 2 * 86_400_000);
    database.close();
    await service(['bravo']);
    const flagged = await scan(['--max-age', '1d', '--fail-on', 'new-block']);
    expect(flagged.code).toBe(3);
    expect(asked().sort()).toEqual([md5('alpha'), md5('bravo'), md5('charlie')].sort());
    expect(byKey(flagged.stdout).get('b.txt')).toMatchObject({
      change: 'verdict',
      previousDecision: 'allow',
      decision: 'block',
      verdict: 'malicious',
      firstSeen: '2026-01-02 03:04:05',
      digestSource: 'etag-md5',
    });
    // Next run: the block is recorded; exit 1 still says a block is there.
    const again = await scan(['--fail-on', 'new-block']);
    expect(again.code).toBe(1);
    expect(byKey(again.stdout).get('b.txt')).toMatchObject({ change: 'unchanged', previousDecision: 'block' });
  });
});
