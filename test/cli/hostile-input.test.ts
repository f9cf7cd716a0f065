import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EICAR_RECORD, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { parseNdjson, runCli, startCli } from './run-cli.js';

const hashOf = (n: number): string => createHash('sha256').update(`listed file ${n}`).digest('hex');
const list = (from: number, count: number): string[] => Array.from({ length: count }, (_, i) => hashOf(from + i));

let dir: string;
let sandbox: Sandbox;
let env: Record<string, string>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-hostile-'));
  sandbox = await startSandbox();
  env = { HASHSCAN_BASE_URL: sandbox.hashScanUrl, HASHSCAN_API_KEY: sandbox.apiKey };
});

afterAll(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

const asked = (hashes: readonly string[]): number =>
  sandbox.requests.filter((request) => hashes.includes(request.params.hash ?? '')).length;

/** Rewrites a state file's snapshot with `change`, keeping it well formed (and its checksum right, if it has one). */
async function forge(path: string, change: (snapshot: Record<string, unknown>) => void): Promise<void> {
  const [body, sum] = (await readFile(path, 'utf8')).split('\n');
  const snapshot = JSON.parse(body as string) as Record<string, unknown>;
  change(snapshot);
  const forged = JSON.stringify(snapshot);
  const checksum = sum?.startsWith('sha256 ') ? `sha256 ${createHash('sha256').update(forged).digest('hex')}\n` : '';
  await writeFile(path, `${forged}\n${checksum}`);
}

describe('lookup reads lines in bounded memory', { timeout: 60_000 }, () => {
  it('reports a 50 MiB line as an invalid line by number, cut in the output, and goes on', async () => {
    const input = join(dir, 'long-line.txt');
    await writeFile(input, `${'a'.repeat(50 * 1024 * 1024)}\n${hashOf(1)}\n`);
    // A heap far smaller than the line: reading it whole (as a string) runs out of memory.
    const run = await runCli(['lookup', '-f', 'ndjson', '--input', input], {
      env: { ...env, NODE_OPTIONS: '--max-old-space-size=40' },
    });
    expect(run.stderr).not.toMatch(/heap|allocation/i);
    expect(run.code).toBe(2);
    expect(run.stdout.length).toBeLessThan(2000);
    const rows = parseNdjson(run.stdout).sort((a, b) => Number(a.line) - Number(b.line));
    expect(rows).toEqual([
      expect.objectContaining({ line: 1, verdict: 'error', decision: 'review', error: 'LINE_TOO_LONG' }),
      expect.objectContaining({ line: 2, verdict: 'not_detected', decision: 'allow' }),
    ]);
    expect(String(rows[0]?.hash).length).toBeLessThan(100);
  });
});

describe('--resume skips only what the state proves', { timeout: 60_000 }, () => {
  it('refuses a state edited to settle lines it never read (a hit behind them is never skipped)', async () => {
    const input = join(dir, 'forged.txt');
    const state = join(dir, 'forged.state');
    await writeFile(input, `${list(0, 100).join('\n')}\n`);
    const args = ['lookup', '-f', 'ndjson', '--input', input, '--resume', state];
    expect((await runCli(args, { env })).code).toBe(0);
    // The list grows to 300 lines with a hit at line 250; the state is edited to claim all 300.
    const grown = list(0, 300);
    grown[249] = EICAR_RECORD.sha256;
    await writeFile(input, `${grown.join('\n')}\n`);
    await forge(state, (snapshot) => {
      const at = (snapshot.answers as [number][])[0]?.[0];
      snapshot.answers = [[at, [[1, 300]], [], []]];
    });
    const run = await runCli(args, { env });
    expect(run.code).toBe(64);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/--resume .* cannot be trusted/);
  });

  it('refuses, on stdin, a state written for another list', async () => {
    const state = join(dir, 'stdin.state');
    const first = list(1000, 50);
    const args = ['lookup', '-f', 'ndjson', '--resume', state];
    expect((await runCli(args, { env, input: `${first.join('\n')}\n` })).code).toBe(0);
    // The same list again: nothing left to ask.
    const again = await runCli(args, { env, input: `${first.join('\n')}\n` });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('');
    const other = list(2000, 50);
    other[10] = EICAR_RECORD.sha256;
    const run = await runCli(args, { env, input: `${other.join('\n')}\n` });
    expect(run.code).toBe(64);
    expect(run.stderr).toContain('was written for another input');
    expect(parseNdjson(run.stdout).map((row) => row.decision)).not.toContain('allow');
  });

  it('refuses a journal left without its state (kill -9, then STATE deleted)', async () => {
    const answered = list(3000, 100);
    const stalled = list(4000, 5);
    const stalling = await startSandbox({
      hashScan: { faults: Object.fromEntries(stalled.map((hash) => [hash, 'timeout'])) },
    });
    const input = join(dir, 'killed.txt');
    const state = join(dir, 'killed.state');
    await writeFile(input, `${[...answered, ...stalled].join('\n')}\n`);
    const args = ['lookup', '-f', 'ndjson', '--concurrency', '8', '--input', input, '--resume', state];
    const child = startCli(args, {
      env: { HASHSCAN_BASE_URL: stalling.hashScanUrl, HASHSCAN_API_KEY: stalling.apiKey },
    });
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    const exited = new Promise((resolve) => child.once('close', resolve));
    await expect.poll(() => parseNdjson(out).length, { timeout: 20_000, interval: 50 }).toBe(100);
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill('SIGKILL');
    await exited;
    await stalling.close();
    expect((await readFile(`${state}.journal`, 'utf8')).length).toBeGreaterThan(0);
    await unlink(state);
    // A new list, a hit at line 50, the same state path.
    const fresh = list(5000, 105);
    fresh[49] = EICAR_RECORD.sha256;
    await writeFile(input, `${fresh.join('\n')}\n`);
    const before = asked([EICAR_RECORD.sha256]);
    const run = await runCli(args, { env });
    expect(run.code).toBe(64);
    expect(run.stderr).toContain('a journal without its state file');
    expect(asked([EICAR_RECORD.sha256])).toBe(before);
  });

  it('refuses a journal edited by hand, and one of another state', async () => {
    const input = join(dir, 'edited.txt');
    const state = join(dir, 'edited.state');
    await writeFile(input, `${list(6000, 20).join('\n')}\n`);
    const args = ['lookup', '-f', 'ndjson', '--input', input, '--resume', state];
    expect((await runCli(args, { env })).code).toBe(0);
    const journal = await readFile(`${state}.journal`, 'utf8');
    await writeFile(`${state}.journal`, `${journal}s 21 a 00000000\ns 22 a 00000000\n`);
    const edited = await runCli(args, { env });
    expect(edited.code).toBe(64);
    expect(edited.stderr).toContain('does not check');
    await writeFile(`${state}.journal`, `hashscan-sms-journal ${'0'.repeat(32)}\n`);
    const foreign = await runCli(args, { env });
    expect(foreign.code).toBe(64);
    expect(foreign.stderr).toContain('belongs to another state');
  });

  it('resumes a list of several digest blocks, and refuses it once a block differs', async () => {
    const failing = [hashOf(7001), hashOf(7002)];
    const flaky = await startSandbox({
      hashScan: { faults: Object.fromEntries(failing.map((hash) => [hash, 'http-status'])) },
    });
    const flakyEnv = { HASHSCAN_BASE_URL: flaky.hashScanUrl, HASHSCAN_API_KEY: flaky.apiKey };
    const lines = list(8000, 3000);
    lines[1499] = failing[0] as string;
    lines[2899] = failing[1] as string;
    const input = join(dir, 'blocks.txt');
    const state = join(dir, 'blocks.state');
    await writeFile(input, `${lines.join('\n')}\n`);
    const args = ['lookup', '-f', 'ndjson', '--retries', '0', '--input', input, '--resume', state];
    expect((await runCli(args, { env: flakyEnv })).code).toBe(2);
    const before = flaky.requests.length;
    const again = await runCli(args, { env: flakyEnv });
    expect(again.code).toBe(2);
    expect(parseNdjson(again.stdout).map((row) => row.line)).toEqual([1500, 2900]);
    expect(flaky.requests.length - before).toBe(2);
    // Line 2500 changes: lines of the first two blocks (1 to 2048) still verify; the third (its last 952) does not.
    lines[2499] = EICAR_RECORD.sha256;
    await writeFile(input, `${lines.join('\n')}\n`);
    const changed = await runCli(args, { env: flakyEnv });
    await flaky.close();
    expect(changed.code).toBe(64);
    expect(changed.stderr).toContain('lines 2049–3000 differ');
    expect(parseNdjson(changed.stdout).every((row) => Number(row.line) <= 2048)).toBe(true);
  });
});
