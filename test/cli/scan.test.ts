import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFor, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { CLI_PATH } from './build-cli.js';
import { csvRecords, parseNdjson, runCli } from './run-cli.js';
import { runMain } from './run-main.js';

const MODES = [
  { mode: 'binary', run: runCli },
  { mode: 'in-process', run: runMain },
];

const MALICIOUS = 'pretend this is malware';
const FLAKY = 'the service answers 503 for this one';
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const API_KEY = 'sk-test-SECRET-0123456789abcdef';
const WEIRD = 'we"ird, name\n.txt';
/** Root runs the unreadable-file case as `nobody`, who must be able to run this Node (not one under /root/.npm/_npx). */
const NOBODY = { uid: 65_534, gid: 65_534 };
const canDropToNobody =
  process.getuid?.() !== 0 || spawnSync(process.execPath, ['--version'], { ...NOBODY, stdio: 'ignore' }).status === 0;

let root: string;
let sandbox: Sandbox;
let env: Record<string, string>;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'cli-scan-'));
  await chmod(root, 0o755); // the unreadable-file test runs the CLI as an unprivileged user
  const tree = join(root, 'tree');
  await mkdir(join(tree, 'nested', 'deep'), { recursive: true });
  await writeFile(join(tree, 'clean.txt'), 'clean');
  await writeFile(join(tree, 'copy-of-clean.txt'), 'clean');
  await writeFile(join(tree, 'nested', 'deep', 'other.txt'), 'other');
  await writeFile(join(tree, 'nested', 'bad.bin'), MALICIOUS);
  await writeFile(join(tree, WEIRD), 'weird');
  await mkdir(join(root, 'clean-only'));
  await writeFile(join(root, 'clean-only', 'a.txt'), 'a');
  await mkdir(join(root, 'flaky'));
  await writeFile(join(root, 'flaky', 'ok.txt'), 'ok');
  await writeFile(join(root, 'flaky', 'flaky.txt'), FLAKY);
  sandbox = await startSandbox({
    hashScan: { apiKey: API_KEY, records: [recordFor(MALICIOUS)], faults: { [sha256(FLAKY)]: 'http-status' } },
  });
  env = { HASHSCAN_BASE_URL: sandbox.hashScanUrl, HASHSCAN_API_KEY: API_KEY };
});

afterAll(async () => {
  await sandbox.close();
  await rm(root, { recursive: true, force: true });
});

/** A copy of the built CLI (every chunk) in `dir`, readable by every user; returns its entry. */
async function readableCliCopy(dir: string): Promise<string> {
  await cp(dirname(CLI_PATH), dir, { recursive: true });
  await chmod(dir, 0o755);
  return join(dir, basename(CLI_PATH));
}

/** Whether `user` can read `path` (every folder above it included), asked of the system as that user. */
function canRead(path: string, user: { uid: number; gid: number }): boolean {
  const probe = spawnSync(process.execPath, ['-e', 'require("node:fs").accessSync(process.argv[1], 4)', path], {
    ...user,
    stdio: 'ignore',
  });
  return probe.status === 0;
}

const lookupsOf = (hashes: readonly string[]): number =>
  sandbox.requests.filter((request) => hashes.includes(request.params.hash ?? '')).length;

describe.each(MODES)('hashscan-sms scan ($mode)', { timeout: 30_000 }, ({ mode, run: cli }) => {
  it('reports every file once with verdict and decision (NDJSON), asks repeated contents once, exits 1 on a malicious file', async () => {
    const before = lookupsOf([sha256('clean')]);
    const run = await cli(['scan', '--format', 'ndjson', '--retries', '0', join(root, 'tree')], { env });
    expect(run.code).toBe(1);
    const rows = parseNdjson(run.stdout);
    const byName = new Map(rows.map((row) => [String(row.path).slice(join(root, 'tree').length + 1), row]));
    expect([...byName.keys()].sort()).toEqual(
      ['clean.txt', 'copy-of-clean.txt', 'nested/bad.bin', 'nested/deep/other.txt', WEIRD].sort(),
    );
    expect(byName.get('nested/bad.bin')).toMatchObject({
      verdict: 'malicious',
      decision: 'block',
      sha256: sha256(MALICIOUS),
    });
    expect(byName.get('clean.txt')).toMatchObject({
      verdict: 'not_detected',
      decision: 'allow',
      size: 5,
      sha256: sha256('clean'),
    });
    expect(byName.get(WEIRD)).toMatchObject({ verdict: 'not_detected' });
    expect(lookupsOf([sha256('clean')]) - before).toBe(1);
    expect(run.stderr).toContain('5 files: 1 block, 0 review, 4 allow');
  });

  it('writes CSV that parses back, odd file names included, with several digests from one read', async () => {
    const run = await cli(['scan', '-f', 'csv', '-a', 'sha256', '-a', 'md5', join(root, 'tree')], { env });
    expect(run.code).toBe(1);
    const records = csvRecords(run.stdout);
    expect(records).toHaveLength(5);
    const weird = records.find((record) => record.path === join(root, 'tree', WEIRD));
    expect(weird).toMatchObject({
      decision: 'allow',
      sha256: sha256('weird'),
      md5: createHash('md5').update('weird').digest('hex'),
    });
    expect(Object.keys(weird ?? {})).toEqual([
      'decision',
      'verdict',
      'sha256',
      'md5',
      'size',
      'detail',
      'path',
      'pathBase64',
      'source',
      'error',
      'checkedAt',
      'firstSeen',
      'lastSeen',
    ]);
    expect(weird?.checkedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const bad = records.find((record) => record.path === join(root, 'tree', 'nested', 'bad.bin'));
    expect(bad?.firstSeen).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('writes one JSON document with --format json, and a table by default', async () => {
    const json = await cli(['scan', '-f', 'json', join(root, 'clean-only')], { env });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ verdict: 'not_detected', decision: 'allow' })]);
    const table = await cli(['scan', join(root, 'clean-only')], { env });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^DECISION\s+VERDICT\s+SHA256\s+SIZE\s+DETAIL\s+PATH\n/);
    // Not a terminal: digests whole (the terminal case is in test/cli/wide-table.test.ts).
    expect(table.stdout).toMatch(
      /allow\s+not_detected\s+ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb\s+1\s+\S*a\.txt\n$/,
    );
  });

  it('exits 2 when a lookup fails (review), never reporting it clean; --fail-on block and --on-error block change the status', async () => {
    const args = ['scan', '-f', 'ndjson', '--retries', '0', join(root, 'flaky')];
    const run = await cli(args, { env });
    expect(run.code).toBe(2);
    const flaky = parseNdjson(run.stdout).find((row) => String(row.path).endsWith('flaky.txt'));
    expect(flaky).toMatchObject({ verdict: 'error', decision: 'review', error: 'HTTP_STATUS' });
    expect((await cli([...args, '--fail-on', 'block'], { env })).code).toBe(0);
    expect((await cli([...args, '--on-error', 'block'], { env })).code).toBe(1);
  });

  it.runIf(mode === 'binary' && canDropToNobody)(
    'reports an unreadable file as review and scans the rest (run as an unprivileged user)',
    async (context) => {
      const dir = join(root, 'unreadable');
      await mkdir(dir);
      await writeFile(join(dir, 'secret.txt'), 'no access');
      await writeFile(join(dir, 'open.txt'), 'open');
      await chmod(join(dir, 'secret.txt'), 0o000);
      // Root reads a mode-000 file anyway; as `nobody` the permission applies, as for any user.
      const asRoot = process.getuid?.() === 0;
      const asUser = asRoot ? NOBODY : {};
      // The run's temp dir (test/global-setup.ts) is 0700: let that user through it, without listing it.
      if (asRoot) await chmod(dirname(root), 0o711);
      // The built CLI sits under the clone (node_modules/.cache), which may be in a folder that user
      // cannot enter (`mktemp -d` makes 0700 ones): run a copy from this test's own readable folder.
      const cliPath = asRoot ? await readableCliCopy(join(root, 'cli-copy')) : undefined;
      const reachable = cliPath === undefined || canRead(cliPath, NOBODY);
      if (!reachable) {
        context.skip(`nobody cannot reach ${root} (a folder above the test's temp dir is closed to other users)`);
      }
      const run = await cli(['scan', '-f', 'ndjson', dir], { env, ...asUser, ...(cliPath ? { cliPath } : {}) });
      expect(run.code).toBe(2);
      const rows = parseNdjson(run.stdout);
      expect(rows.find((row) => String(row.path).endsWith('secret.txt'))).toMatchObject({
        verdict: 'error',
        decision: 'review',
        error: 'EACCES',
      });
      expect(rows.find((row) => String(row.path).endsWith('open.txt'))).toMatchObject({ verdict: 'not_detected' });
    },
  );

  it('does not follow symbolic links unless -L, and then detects a loop and reports a dangling link', async () => {
    const dir = join(root, `links-${mode}`);
    await mkdir(join(dir, 'sub'), { recursive: true });
    await writeFile(join(dir, 'sub', 'file.txt'), 'in the loop');
    await symlink('..', join(dir, 'sub', 'up')); // sub/up → links: a cycle
    await symlink(join(dir, 'sub', 'file.txt'), join(dir, 'file-link'));
    await symlink(join(dir, 'nowhere'), join(dir, 'dangling'));

    const plain = await cli(['scan', '-f', 'ndjson', dir], { env });
    expect(plain.code).toBe(0);
    expect(parseNdjson(plain.stdout).map((row) => row.path)).toEqual([join(dir, 'sub', 'file.txt')]);
    expect(plain.stderr).toContain('3 skipped');

    const follow = await cli(['scan', '-f', 'ndjson', '-L', dir], { env });
    expect(follow.code).toBe(2);
    const rows = parseNdjson(follow.stdout);
    expect(rows.find((row) => row.path === join(dir, 'dangling'))).toMatchObject({ verdict: 'error', error: 'ENOENT' });
    expect(
      rows
        .filter((row) => row.verdict === 'not_detected')
        .map((row) => row.path)
        .sort(),
    ).toEqual([join(dir, 'file-link'), join(dir, 'sub', 'file.txt')].sort());
    expect(follow.stderr).toMatch(/skipped .*sub\/up: directory already visited \(symbolic link loop\)/);
  });

  it('never shows the API key, in --verbose logs or when the key is refused', async () => {
    const ok = await cli(['scan', '-v', '-f', 'ndjson', join(root, 'clean-only')], { env });
    expect(ok.code).toBe(0);
    expect(ok.stderr).toMatch(/debug .*hash_scan/);
    const refused = await cli(['scan', '-v', '-f', 'ndjson', '--retries', '0', join(root, 'clean-only')], {
      env: { ...env, HASHSCAN_API_KEY: `${API_KEY}-wrong` },
    });
    expect(refused.code).toBe(2);
    expect(parseNdjson(refused.stdout)[0]).toMatchObject({ verdict: 'error', decision: 'review' });
    for (const run of [ok, refused]) {
      expect(`${run.stdout}${run.stderr}`).not.toContain(API_KEY);
      expect(`${run.stdout}${run.stderr}`).not.toContain('SECRET');
    }
  });

  it('exits 64 on usage errors, with a message on stderr only', async () => {
    for (const args of [
      ['scan'],
      ['scan', '--format', 'xml', root],
      ['scan', '--bogus', root],
      ['scan', '-a', 'sha512', root],
      ['scan', join(root, 'no-such-folder')],
      ['scan', join(root, 'clean-only'), join(root, 'clean-only', 'a.txt', 'below-a-file')],
      ['nope'],
    ]) {
      const run = await cli(args, { env });
      expect(run.code, args.join(' ')).toBe(64);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^hashscan-sms: /);
    }
    const missing = await cli(['scan', join(root, 'no-such-folder')], { env });
    expect(missing.stderr).toContain(`no such file or folder: ${join(root, 'no-such-folder')}`);
    const unconfigured = await cli(['scan', root], {});
    expect(unconfigured.code).toBe(64);
    expect(unconfigured.stderr).toContain('HASHSCAN_');
    // The missing key is named as the command line sets it, not as the library option.
    const noKey = await cli(['scan', join(root, 'clean-only')], { env: { HASHSCAN_BASE_URL: env.HASHSCAN_BASE_URL } });
    expect(noKey.code).toBe(64);
    expect(noKey.stderr).toContain('--api-key');
    expect(noKey.stderr).toContain('HASHSCAN_API_KEY');
    expect(noKey.stderr).not.toContain('apiKey');
  });

  it('runs offline against an in-process sandbox with --sandbox', async () => {
    const run = await cli(['scan', '--sandbox', '-f', 'ndjson', join(root, 'clean-only')], {});
    expect(run.code).toBe(0);
    expect(parseNdjson(run.stdout)).toEqual([expect.objectContaining({ verdict: 'not_detected' })]);
  });

  it('prints help with examples, and the version', async () => {
    const help = await cli(['scan', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: hashscan-sms scan');
    expect(help.stdout).toContain('Examples:');
    const version = await cli(['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const top = await cli(['--help']);
    expect(top.stdout).toContain('sms send');
  });
});
