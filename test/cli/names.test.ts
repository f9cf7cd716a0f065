import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { csvRecords, inTerminal, parseNdjson, runCli } from './run-cli.js';

const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';
/** `evil\xfe.com`: not valid UTF-8, so a JS string cannot hold it. */
const EVIL = Buffer.concat([Buffer.from('evil'), Buffer.of(0xfe), Buffer.from('.com')]);
/** A link name that would retitle the window and turn the terminal red if printed raw. */
const HOSTILE = 'link\u001b]0;pwned\u0007\u001b[31mRED';

let dir: string;
let sandbox: Sandbox;
let env: Record<string, string>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-names-'));
  await mkdir(join(dir, 'bytes'));
  await writeFile(Buffer.concat([Buffer.from(join(dir, 'bytes', '/')), EVIL]), EICAR);
  await writeFile(join(dir, 'bytes', 'clean.txt'), 'clean');
  await mkdir(join(dir, 'links'));
  await writeFile(join(dir, 'links', 'target.txt'), 'target');
  await symlink(join(dir, 'links', 'target.txt'), join(dir, 'links', HOSTILE));
  await mkdir(join(dir, 'links', `sub${HOSTILE}`));
  await symlink('..', join(dir, 'links', `sub${HOSTILE}`, `up${HOSTILE}`));
  sandbox = await startSandbox();
  env = { HASHSCAN_BASE_URL: sandbox.hashScanUrl, HASHSCAN_API_KEY: sandbox.apiKey };
});

afterAll(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

const terminal = (args: readonly string[]) => inTerminal(args, { env, columns: 200, encoding: 'latin1' });

describe('file names are bytes (scan)', { timeout: 30_000 }, () => {
  it('hashes a file whose name is not UTF-8, and gives its exact name back in ndjson, json and csv', async () => {
    const root = join(dir, 'bytes');
    const ndjson = await runCli(['scan', '-f', 'ndjson', '--fail-on', 'block', root], { env });
    expect(ndjson.code).toBe(1);
    const evil = parseNdjson(ndjson.stdout).find((row) => row.pathBase64 !== undefined);
    expect(evil).toMatchObject({ verdict: 'malicious', decision: 'block', path: join(root, 'evil\\xfe.com') });
    expect(Buffer.from(String(evil?.pathBase64), 'base64').equals(Buffer.concat([Buffer.from(`${root}/`), EVIL]))).toBe(
      true,
    );
    // A valid UTF-8 name has no second form.
    expect(parseNdjson(ndjson.stdout).find((row) => String(row.path).endsWith('clean.txt'))).not.toHaveProperty(
      'pathBase64',
    );

    const json = await runCli(['scan', '-f', 'json', root], { env });
    expect(json.code).toBe(1);
    const rows = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(rows.filter((row) => row.pathBase64 === evil?.pathBase64)).toHaveLength(1);

    const csv = await runCli(['scan', '-f', 'csv', root], { env });
    expect(csv.code).toBe(1);
    const records = csvRecords(csv.stdout);
    expect(records.find((record) => record.decision === 'block')).toMatchObject({
      pathBase64: evil?.pathBase64,
      path: join(root, 'evil\\xfe.com'),
    });
    expect(records.find((record) => record.decision === 'allow')?.pathBase64).toBe('');
  });

  it('shows the name escaped in the table', async () => {
    const table = await runCli(['scan', join(dir, 'bytes')], { env });
    expect(table.code).toBe(1);
    expect(table.stdout).toContain('evil\\xfe.com');
    expect(table.stdout).not.toContain('\ufffd');
  });
});

describe('every printed name is escaped (stderr notices, --verbose, table)', { timeout: 30_000 }, () => {
  it('never sends a name’s terminal escapes to the terminal', async () => {
    const { code, screen } = await terminal(['scan', '--verbose', '-L', join(dir, 'links')]);
    expect(code).toBe(0);
    // The loop notice (always shown) and the skipped link (with --verbose, without -L) name hostile paths.
    expect(screen).toContain('directory already visited');
    expect(screen).toContain('link\\x1b]0;pwned\\x07\\x1b[31mRED');
    expect(screen).not.toContain('\u001b]0;pwned');
    expect(screen).not.toContain('\u001b[31mRED');
    const plain = await terminal(['scan', '--verbose', join(dir, 'links')]);
    expect(plain.code).toBe(0);
    expect(plain.screen).toContain('symbolic link not followed');
    expect(plain.screen).not.toContain('\u001b]0;pwned');
    expect(plain.screen).not.toContain('\u001b[31mRED');
  });
});
