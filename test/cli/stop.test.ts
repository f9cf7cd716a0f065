import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EICAR_RECORD, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { CLI_PATH } from './build-cli.js';
import { cliEnv, parseNdjson, runCli, startCli } from './run-cli.js';

const hashOf = (n: number): string => createHash('sha256').update(`stop file ${n}`).digest('hex');

let dir: string;
let sandbox: Sandbox;
let env: Record<string, string>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-stop-'));
  sandbox = await startSandbox();
  env = { HASHSCAN_BASE_URL: sandbox.hashScanUrl, HASHSCAN_API_KEY: sandbox.apiKey };
});

afterAll(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

describe('stopping from outside', { timeout: 60_000 }, () => {
  it('exits 143 soon after SIGTERM while its reader has stopped reading, its state consistent', async () => {
    const count = 20_000;
    const input = join(dir, 'blocked.txt');
    const state = join(dir, 'blocked.state');
    await writeFile(input, `${Array.from({ length: count }, (_, i) => hashOf(i)).join('\n')}\n`);
    const args = ['lookup', '-f', 'ndjson', '--concurrency', '32', '--input', input, '--resume', state];
    const child = startCli(args, { env });
    // `exit`, not `close`: stdio stays open while the unread output waits in the pipe.
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      child.once('exit', (code) => resolve({ code, at: performance.now() })),
    );
    // Nobody reads stdout: the pipe fills and the CLI waits for it to drain. (A `readable` listener
    // that does not read, rather than pause(): node resumes an unread stdout when the child exits,
    // dropping what it held.)
    let printed = '';
    let reading = false;
    const drain = (): void => {
      if (!reading) return;
      for (let chunk = child.stdout?.read() as Buffer | null; chunk !== null; chunk = child.stdout?.read() ?? null) {
        printed += chunk.toString();
      }
    };
    child.stdout?.on('readable', drain);
    let asked = sandbox.requests.length;
    await expect
      .poll(
        () => {
          const now = sandbox.requests.length;
          const stalled = now === asked && now > 100;
          asked = now;
          return stalled;
        },
        { timeout: 20_000, interval: 300 },
      )
      .toBe(true);
    const sent = performance.now();
    child.kill('SIGTERM');
    const { code, at } = await Promise.race([
      exited,
      new Promise<{ code: null; at: number }>((resolve) => setTimeout(() => resolve({ code: null, at: -1 }), 10_000)),
    ]);
    if (code === null) child.kill('SIGKILL');
    expect(code).toBe(143);
    expect(at - sent).toBeLessThan(3000);
    // What reached the pipe before the stop is still there to read.
    reading = true;
    const ended = new Promise((resolve) => child.once('close', resolve));
    drain();
    await ended;

    const rest = await runCli(args, { env });
    expect(rest.code).toBe(0);
    expect(rest.stderr).toContain(`${count} hashes: 0 block, 0 review, ${count} allow`);
    const lines = new Set([...parseNdjson(printed), ...parseNdjson(rest.stdout)].map((row) => Number(row.line)));
    expect(lines.size).toBe(count);
  });

  it('exits non-zero without a stack trace when its reader leaves (… | head -1, pipefail)', async () => {
    const hashes = Array.from({ length: 3000 }, (_, i) => hashOf(100_000 + i));
    const input = join(dir, 'piped.txt');
    await writeFile(input, `${[...hashes, EICAR_RECORD.sha256].join('\n')}\n`);
    const cli = [process.execPath, CLI_PATH, 'lookup', '-f', 'ndjson', '--input', input].map((w) => `'${w}'`).join(' ');
    const shell = spawn('bash', ['-o', 'pipefail', '-c', `${cli} | head -1 > /dev/null; echo "status=$?"`], {
      env: cliEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    shell.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    shell.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
    });
    await new Promise((resolve) => shell.once('close', resolve));
    const status = Number(/status=(\d+)/.exec(out)?.[1]);
    expect([141, 2]).toContain(status);
    expect(err).not.toMatch(/\n\s+at |Error:/);
  });
});
