import { describe, expect, it } from 'vitest';
import { EICAR_RECORD } from '../../src/sandbox/index.js';
import { collect, parseNdjson, runCli, startCli } from './run-cli.js';

describe('hashscan-sms sandbox', { timeout: 30_000 }, () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'serves until %s, prints what to export, then stops cleanly with 0',
    async (signal) => {
      const child = startCli(['sandbox', '--format', 'json']);
      const done = collect(child);
      let first = '';
      child.stdout?.on('data', (chunk: string) => {
        first += chunk;
      });
      await expect.poll(() => first.includes('\n'), { timeout: 20_000, interval: 50 }).toBe(true);
      const info = JSON.parse(first.split('\n')[0] as string) as { env: Record<string, string>; inboxUrl: string };
      expect(info.env.HASHSCAN_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(info.inboxUrl).toBe(`${info.env.HASHSCAN_BASE_URL}/_inbox`);
      expect(Object.keys(info.env).sort()).toEqual([
        'HASHSCAN_API_KEY',
        'HASHSCAN_BASE_URL',
        'SMS_ACCESS_KEY_ID',
        'SMS_ACCESS_KEY_SECRET',
        'SMS_BASE_URL',
      ]);

      // The printed variables are all another process needs.
      const lookup = await runCli(['lookup', '-f', 'ndjson', EICAR_RECORD.sha256], { env: info.env });
      expect(lookup.code).toBe(1);
      expect(parseNdjson(lookup.stdout)[0]).toMatchObject({ verdict: 'malicious' });

      child.kill(signal);
      const run = await done;
      expect(run.code).toBe(0);
    },
  );

  it('prints export lines in text form', async () => {
    const child = startCli(['sandbox']);
    const done = collect(child);
    let out = '';
    child.stdout?.on('data', (chunk: string) => {
      out += chunk;
    });
    await expect.poll(() => out.includes('Ctrl-C'), { timeout: 20_000, interval: 50 }).toBe(true);
    expect(out).toMatch(/^export HASHSCAN_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/m);
    expect(out).toMatch(/^export SMS_ACCESS_KEY_SECRET=\S+$/m);
    const inbox = /^ {2}inbox: +(http:\/\/127\.0\.0\.1:\d+\/_inbox) /m.exec(out)?.[1];
    expect((await fetch(inbox ?? 'http://invalid.invalid')).headers.get('content-type')).toBe(
      'text/html; charset=utf-8',
    );
    child.kill('SIGINT');
    const run = await done;
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('sandbox stopped');
  });

  it('bound beyond loopback, needs the inbox token from SANDBOX_INBOX_TOKEN and never prints it', async () => {
    const refused = await runCli(['sandbox', '--host', '0.0.0.0'], { env: { SANDBOX_INBOX_TOKEN: '' } });
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain('SANDBOX_INBOX_TOKEN');
    // A token the inbox page could never send is refused at start, by the variable's name.
    const spaced = 'a token with spaces 0123456789';
    const unusable = await runCli(['sandbox'], { env: { SANDBOX_INBOX_TOKEN: spaced } });
    expect(unusable.code).toBe(64);
    expect(unusable.stderr).toContain('SANDBOX_INBOX_TOKEN: must be printable ASCII without spaces');
    expect(`${unusable.stdout}${unusable.stderr}`).not.toContain(spaced);

    const token = 'cli-inbox-token-0123456789';
    const child = startCli(['sandbox', '--host', '0.0.0.0', '--format', 'json'], {
      env: { SANDBOX_INBOX_TOKEN: token },
    });
    const done = collect(child);
    let first = '';
    child.stdout?.on('data', (chunk: string) => {
      first += chunk;
    });
    await expect.poll(() => first.includes('\n'), { timeout: 20_000, interval: 50 }).toBe(true);
    const { inboxUrl } = JSON.parse(first.split('\n')[0] as string) as { inboxUrl: string };
    const local = inboxUrl.replace('0.0.0.0', '127.0.0.1');
    expect((await fetch(`${local}/api/messages`)).status).toBe(401);
    expect((await fetch(`${local}/api/messages`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    child.kill('SIGINT');
    const run = await done;
    expect(run.code).toBe(0);
    expect(`${run.stdout}${run.stderr}`).not.toContain(token);
  });

  it('--detach exports the inbox address beside the base URLs and the pid', async () => {
    const run = await runCli(['sandbox', '--detach']);
    expect(run.code, run.stderr).toBe(0);
    const env = Object.fromEntries(
      [...run.stdout.matchAll(/^export (\w+)=(\S+)$/gm)].map(([, name, value]) => [name, value] as const),
    );
    try {
      expect(Object.keys(env).sort()).toEqual([
        'HASHSCAN_API_KEY',
        'HASHSCAN_BASE_URL',
        'HASHSCAN_SANDBOX_INBOX_URL',
        'HASHSCAN_SANDBOX_PID',
        'SMS_ACCESS_KEY_ID',
        'SMS_ACCESS_KEY_SECRET',
        'SMS_BASE_URL',
      ]);
      expect(env.HASHSCAN_SANDBOX_INBOX_URL).toBe(`${env.HASHSCAN_BASE_URL}/_inbox`);
      const answer = await fetch(`${env.HASHSCAN_SANDBOX_INBOX_URL}/api/messages`);
      expect(await answer.json()).toMatchObject({ loopback: true, messages: [] });
    } finally {
      if (env.HASHSCAN_SANDBOX_PID !== undefined) process.kill(Number(env.HASHSCAN_SANDBOX_PID), 'SIGTERM');
    }
    const json = await runCli(['sandbox', '--detach', '--format', 'json']);
    const info = JSON.parse(json.stdout) as { pid: number; inboxUrl: string; env: Record<string, string> };
    process.kill(info.pid, 'SIGTERM');
    expect(info.inboxUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/_inbox$/);
    expect(info.env.HASHSCAN_SANDBOX_INBOX_URL).toBe(info.inboxUrl);
  });

  it('--detach on a port in use says why and exits 64, leaving nothing behind', async () => {
    const busy = await runCli(['sandbox', '--detach', '--format', 'json']);
    expect(busy.code).toBe(0);
    const { url, pid } = JSON.parse(busy.stdout) as { url: string; pid: number };
    try {
      const again = await runCli(['sandbox', '--detach', '--port', new URL(url).port]);
      expect(again.code).toBe(64);
      expect(again.stdout).toBe('');
      expect(again.stderr).toContain('cannot listen: EADDRINUSE');
    } finally {
      process.kill(pid, 'SIGTERM');
    }
  });
});
