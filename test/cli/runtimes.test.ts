import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFor, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { collect } from '../helpers/child-output.js';
import { RUNTIMES, type Runtime } from '../helpers/runtimes.js';
import { CLI_PATH } from './build-cli.js';
import { cliEnv, parseNdjson } from './run-cli.js';

const API_KEY = 'sk-test-runtimes-0123456789';
const MALICIOUS = 'pretend this is malware';
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

let root: string;
let sandbox: Sandbox;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'cli-runtimes-'));
  await mkdir(join(root, 'tree', 'nested', 'deep'), { recursive: true });
  await writeFile(join(root, 'tree', 'clean.txt'), 'clean');
  await writeFile(join(root, 'tree', 'nested', 'bad.bin'), MALICIOUS);
  await writeFile(join(root, 'tree', 'nested', 'deep', 'other.txt'), 'other');
  await symlink(join(root, 'tree', 'clean.txt'), join(root, 'tree', 'link.txt'));
  sandbox = await startSandbox({ hashScan: { apiKey: API_KEY, records: [recordFor(MALICIOUS)] } });
});

afterAll(async () => {
  await sandbox.close();
  await rm(root, { recursive: true, force: true });
});

/**
 * Deno gets read and net only: every option is a flag, so no `--allow-env`
 * (the CLI must not need it then).
 */
function scanArgs(runtime: Runtime): string[] {
  const before = runtime.name === 'deno' ? ['run', '--allow-read', '--allow-net'] : [];
  return [
    ...before,
    CLI_PATH,
    'scan',
    '--format',
    'ndjson',
    '--api-key',
    API_KEY,
    '--base-url',
    sandbox.hashScanUrl,
    join(root, 'tree'),
  ];
}

describe.each(RUNTIMES)('hashscan-sms scan of a folder under $name', { timeout: 60_000 }, (runtime) => {
  it('walks the folder (names as bytes, nested folders, a skipped link) and reports as under Node', async () => {
    const child = spawn(runtime.bin, scanArgs(runtime), { env: cliEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    const run = await collect(child);
    const rows = parseNdjson(run.stdout)
      .map((row) => ({ path: row.path, sha256: row.sha256, verdict: row.verdict, decision: row.decision }))
      .sort((a, b) => String(a.path).localeCompare(String(b.path)));
    expect(rows).toEqual([
      { path: join(root, 'tree', 'clean.txt'), sha256: sha256('clean'), verdict: 'not_detected', decision: 'allow' },
      {
        path: join(root, 'tree', 'nested', 'bad.bin'),
        sha256: sha256(MALICIOUS),
        verdict: 'malicious',
        decision: 'block',
      },
      {
        path: join(root, 'tree', 'nested', 'deep', 'other.txt'),
        sha256: sha256('other'),
        verdict: 'not_detected',
        decision: 'allow',
      },
    ]);
    expect(run.stderr).not.toContain('ERR_');
    expect(run.code).toBe(1);
  });

  // Deno's opendir gives names as strings it decoded itself: a name that is not UTF-8 cannot be kept there.
  it.skipIf(runtime.name === 'deno')('keeps a name that is not UTF-8 byte for byte', async () => {
    const dir = join(root, 'bytes');
    await mkdir(dir, { recursive: true });
    const name = Buffer.concat([Buffer.from(`${dir}/caf`), Buffer.of(0xe9), Buffer.from('.txt')]);
    await writeFile(name, 'latin-1 name');
    const args = scanArgs(runtime).slice(0, -1).concat(dir);
    const run = await collect(spawn(runtime.bin, args, { env: cliEnv(), stdio: ['pipe', 'pipe', 'pipe'] }));
    const [row] = parseNdjson(run.stdout);
    expect(row?.pathBase64).toBe(name.toString('base64'));
    expect(row?.verdict).toBe('not_detected');
  });
});
