import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EICAR_RECORD, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { savedAnswers } from './resume/saved-state.js';
import { parseNdjson, runCli } from './run-cli.js';

const hashOf = (n: number): string => createHash('sha256').update(`worker file ${n}`).digest('hex');

let dir: string;
let sandbox: Sandbox;
let env: Record<string, string>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-workers-'));
  sandbox = await startSandbox();
  env = { HASHSCAN_BASE_URL: sandbox.hashScanUrl, HASHSCAN_API_KEY: sandbox.apiKey };
});

afterAll(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

describe('--workers N', { timeout: 60_000 }, () => {
  it('spreads lookup over threads: one output with every line once, one resume state, one exit status', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => hashOf(i));
    lines[4321] = EICAR_RECORD.sha256;
    const input = join(dir, 'list.txt');
    const state = join(dir, 'list.state');
    await writeFile(input, `${lines.join('\n')}\n`);
    const before = sandbox.requests.length;
    const run = await runCli(['lookup', '-f', 'ndjson', '--workers', '3', '--input', input, '--resume', state], {
      env,
    });
    expect(run.code).toBe(1);
    const rows = parseNdjson(run.stdout);
    expect(rows.map((row) => Number(row.line)).sort((a, b) => a - b)).toEqual(lines.map((_, i) => i + 1));
    expect(rows.find((row) => row.line === 4322)).toMatchObject({ verdict: 'malicious', decision: 'block' });
    expect(sandbox.requests.length - before).toBe(5000);
    expect(run.stderr).toContain('5000 hashes: 1 block, 0 review, 4999 allow');
    expect(await savedAnswers(state)).toEqual({ settled: [[1, 5000]], counts: { allow: 4999, block: 1, review: 0 } });
    const again = await runCli(['lookup', '-f', 'ndjson', '--workers', '3', '--input', input, '--resume', state], {
      env,
    });
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
  });

  it('scans with lookup threads, and runs them against --sandbox; bad settings are usage errors', async () => {
    const tree = join(dir, 'tree');
    await mkdir(tree);
    for (let i = 0; i < 50; i += 1) await writeFile(join(tree, `f${i}.txt`), `file ${i}`);
    const run = await runCli(['scan', '-f', 'ndjson', '--workers', '2', '--concurrency', '8', tree], { env });
    expect(run.code).toBe(0);
    expect(parseNdjson(run.stdout)).toHaveLength(50);
    const offline = await runCli(['scan', '-f', 'ndjson', '--workers', '2', '--sandbox', tree], {});
    expect(offline.code).toBe(0);
    expect(parseNdjson(offline.stdout)).toHaveLength(50);
    expect((await runCli(['scan', '--workers', '0', tree], { env })).code).toBe(64);
    const unconfigured = await runCli(['lookup', '--workers', '2', hashOf(1)], {});
    expect(unconfigured.code).toBe(64);
    expect(unconfigured.stderr).toContain('HASHSCAN_');
  });
});
