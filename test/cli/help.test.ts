/**
 * Every command's help, through the binary: `--help` exits 0 with it, the
 * flags its examples use are ones it documents, the examples that run
 * offline run as written, and the sandbox's script example returns.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/registry.js';
import { CLI_PATH } from './build-cli.js';
import { cliEnv, collect, parseNdjson, runCli } from './run-cli.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const NAMES = ['', ...COMMANDS.map((command) => command.name), 'sms'];

async function helpOf(name: string): Promise<string> {
  const run = await runCli([...(name === '' ? [] : name.split(' ')), '--help']);
  expect(run.code, `${name} --help`).toBe(0);
  return run.stdout;
}

/** The example lines of a help text (each a shell line, indented under `Examples:`). */
function examples(help: string): string[] {
  const at = help.indexOf('\nExamples:\n');
  if (at === -1) return [];
  return help
    .slice(at + '\nExamples:\n'.length)
    .split('\n')
    .filter((line) => line.startsWith('  '))
    .map((line) => line.trim());
}

/** Runs shell lines in bash with `hashscan-sms` meaning the built binary, in the repository. */
function shell(lines: readonly string[], timeoutMs = 20_000) {
  const script = [`hashscan-sms() { '${process.execPath}' '${CLI_PATH}' "$@"; }`, 'set -e', ...lines].join('\n');
  const child = spawn('bash', ['-c', script], { cwd: REPO, env: cliEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return collect(child).finally(() => clearTimeout(timer));
}

describe('help', { timeout: 60_000 }, () => {
  it.each(NAMES)('`hashscan-sms %s --help` and `-h` exit 0 with the help on stdout', async (name) => {
    const help = await helpOf(name);
    expect(help).toMatch(/^Usage: hashscan-sms/);
    const short = await runCli([...(name === '' ? [] : name.split(' ')), '-h']);
    expect(short.code).toBe(0);
    expect(short.stdout).toBe(help);
  });

  it('`sms` alone (or with an unknown word) shows the group help as a usage error', async () => {
    for (const args of [['sms'], ['sms', 'oops']]) {
      const run = await runCli(args);
      expect(run.code).toBe(64);
      expect(run.stderr).toContain('hashscan-sms sms send --help');
    }
  });

  it("names the fields each command prints: lookup's `name`, scan's `path`", async () => {
    const lookup = await helpOf('lookup');
    expect(lookup).toContain('`name` (');
    expect(lookup).toContain('`nameBase64`');
    expect(lookup).not.toMatch(/`path(Base64)?`/);
    const scan = await helpOf('scan');
    expect(scan).toContain('`pathBase64`');
    // What the help says lookup prints is what it prints.
    const run = await runCli(['lookup', '--sandbox', '-f', 'ndjson'], {
      input: `e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  a\xffb.txt\n`,
    });
    expect(Object.keys(parseNdjson(run.stdout)[0] ?? {})).toEqual(expect.arrayContaining(['name']));
  });

  it.each(NAMES)('the examples of `%s --help` use only flags it documents', async (name) => {
    const help = await helpOf(name);
    for (const example of examples(help)) {
      const invocation = /hashscan-sms ((?:sms )?\w+)(.*)/.exec(example);
      if (invocation === null) continue;
      const [, command, rest] = invocation as unknown as [string, string, string];
      const own = command === name ? help : await helpOf(command);
      for (const flag of rest.match(/(?<=\s)--?[a-zA-Z][\w-]*/g) ?? []) {
        expect(own, `${example}: ${flag}`).toMatch(new RegExp(`(^|[\\s,])${flag}(?=[\\s,]|$)`, 'm'));
      }
    }
  });

  it('the examples that need no service run as written', async () => {
    const offline = (await Promise.all(NAMES.map(helpOf)))
      .flatMap(examples)
      .filter((line) => /^hashscan-sms .*--sandbox/.test(line) || /^hashscan-sms sms sign --set/.test(line));
    expect(offline.length).toBeGreaterThanOrEqual(3);
    for (const line of new Set(offline)) {
      const run = await shell([`${line} || echo "status=$?"`]);
      const status = Number(/status=(\d+)/.exec(run.stdout)?.[1] ?? 0);
      // 1 is EICAR found (what the lookup example shows); a usage error or a crash is not an example.
      expect([0, 1], `${line}\n${run.stderr}`).toContain(status);
    }
  });

  it("the sandbox's script example returns, serves, and is stopped by its own last line", async () => {
    const help = await helpOf('sandbox');
    const lines = examples(help);
    const start = lines.findIndex((line) => line.startsWith('eval "$(hashscan-sms sandbox --detach'));
    const stop = lines.findIndex((line) => line.startsWith('kill "$HASHSCAN_SANDBOX_PID"'));
    expect(start).toBeGreaterThan(-1);
    expect(stop).toBeGreaterThan(start);
    const script = lines.slice(start, stop + 1).map((line, i) => {
      // Each line's status is kept: the lookup of EICAR exits 1 by design.
      const kept = `${line} && echo "step ${i}: 0" || echo "step ${i}: $?"`;
      return i === 0 ? `${line}\necho "pid=$HASHSCAN_SANDBOX_PID url=$HASHSCAN_BASE_URL"` : kept;
    });
    const gone =
      'for i in $(seq 100); do kill -0 "$HASHSCAN_SANDBOX_PID" 2>/dev/null || { echo stopped; break; }; sleep 0.1; done';
    const run = await shell([...script, gone]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/pid=\d+ url=http:\/\/127\.0\.0\.1:\d+/);
    expect(run.stdout).toContain('malicious');
    expect(run.stdout).toMatch(/step 1: 1/);
    expect(run.stdout).toMatch(/step 2: 0/);
    expect(run.stdout).toContain('stopped');
  });
});
