import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { inTerminal, runCli } from './run-cli.js';

const SLOW = 'answered after a second and a half';
const CLEAR_LINE = '\r\u001b[2K';

let dir: string;
let sandbox: Sandbox;
let env: Record<string, string>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-pty-'));
  await writeFile(join(dir, 'slow.txt'), SLOW);
  await writeFile(join(dir, 'fast.txt'), 'fast');
  const slow = createHash('sha256').update(SLOW).digest('hex');
  sandbox = await startSandbox({ hashScan: { faults: { [slow]: { kind: 'timeout', delayMs: 1500 } } } });
  env = { HASHSCAN_BASE_URL: sandbox.hashScanUrl, HASHSCAN_API_KEY: sandbox.apiKey };
});

afterAll(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

const terminal = (args: readonly string[]) => inTerminal(args, { env, columns: 100, encoding: 'utf8' });

describe('progress display', { timeout: 30_000 }, () => {
  it('shows live progress on a terminal and erases it before results and at the end', async () => {
    const { code, screen } = await terminal(['scan', '--timeout', '5000', dir]);
    expect(code).toBe(0);
    // Drawn at least once while the slow lookup was pending, with its counters.
    expect(screen).toMatch(
      new RegExp(
        `${CLEAR_LINE.replace('[', '\\[')}\\d+ hashed · \\d+(/\\d+)? looked up · [\\d.]+/s · (ETA \\d+s · )?0 errors · \\d+ in flight max`,
      ),
    );
    // Once the walk has ended, the line counts against the files found and shows an ETA (as `lookup` does).
    expect(screen).toMatch(/\d+ hashed · 1\/2 looked up · [\d.]+\/s · ETA \d+s · 0 errors · \d+ in flight max/);
    // Every drawing is erased: after the last one comes a clear, then only results and the summary.
    const lastDraw = screen.lastIndexOf(' looked up');
    const tail = screen.slice(lastDraw);
    expect(tail).toContain(CLEAR_LINE);
    expect(tail.slice(tail.indexOf(CLEAR_LINE) + CLEAR_LINE.length)).not.toContain('looked up');
    expect(screen).toContain('hashscan-sms: 2 files: 0 block, 0 review, 2 allow');
    // The human table, coloured on a terminal.
    expect(screen).toContain('\u001b[32mallow');
  });

  it('draws nothing with --quiet on a terminal, nor when stderr is not a terminal', async () => {
    const quiet = await terminal(['scan', '--quiet', '--timeout', '5000', dir]);
    expect(quiet.code).toBe(0);
    expect(quiet.screen).not.toContain('looked up');
    expect(quiet.screen).not.toContain('hashscan-sms:');
    const piped = await runCli(['scan', '--timeout', '5000', dir], { env });
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('hashscan-sms: 2 files: 0 block, 0 review, 2 allow\n');
    expect(piped.stdout).not.toContain('\u001b[');
  });
});
