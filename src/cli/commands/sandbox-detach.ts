/**
 * `sandbox --detach`: the sandbox in a background process of its own, for
 * scripts. This process starts it, waits until it listens, prints what to
 * export (with its pid, to stop it) and exits, so that
 * `eval "$(hashscan-sms sandbox --detach)"` returns: nothing it leaves
 * behind holds the shell's pipe.
 */
import { spawn } from 'node:child_process';
import type { Io } from '../io.js';
import { UsageError } from '../usage-error.js';

/** What the sandbox prints first with `--format json`. */
interface Listening {
  readonly url: string;
  readonly inboxUrl: string;
  readonly env: Readonly<Record<string, string>>;
}

function isListening(value: unknown): value is Listening {
  if (typeof value !== 'object' || value === null) return false;
  const { url, inboxUrl, env } = value as Record<string, unknown>;
  return (
    typeof url === 'string' &&
    typeof inboxUrl === 'string' &&
    typeof env === 'object' &&
    env !== null &&
    Object.values(env).every((v) => typeof v === 'string')
  );
}

/** A value `sh` reads back as itself. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * Starts `hashscan-sms sandbox` with `args` (its --host and --port) in the
 * background, in a session of its own (a Ctrl-C in this shell does not
 * reach it), and prints its variables (the clients', its inbox address and
 * its pid): `export` lines, or one JSON line.
 */
export async function detachSandbox(args: readonly string[], format: 'text' | 'json', io: Io): Promise<number> {
  const self = process.argv[1];
  if (self === undefined) throw new UsageError('sandbox: --detach needs the hashscan-sms binary');
  const child = spawn(process.execPath, [...process.execArgv, self, 'sandbox', '--format', 'json', ...args], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: io.env,
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const first = await new Promise<string | undefined>((resolve) => {
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.once('error', () => resolve(undefined));
    // `close`, not `exit`: what it said on stderr is read by then.
    child.once('close', () => resolve(undefined));
  });
  let info: unknown;
  try {
    info = first === undefined ? undefined : JSON.parse(first);
  } catch {
    info = undefined;
  }
  if (!isListening(info) || child.pid === undefined) {
    child.kill();
    io.err.write(err === '' ? 'hashscan-sms: sandbox: the background sandbox did not start\n' : err);
    return child.exitCode ?? 70;
  }
  // Let go of it: its pipes closed (it prints nothing more in this form), not waited for.
  child.stdout.destroy();
  child.stderr.destroy();
  child.unref();
  // The inbox's address too: a script's test reads the codes sent from it (`$HASHSCAN_SANDBOX_INBOX_URL/api/messages/latest`).
  const env = { ...info.env, HASHSCAN_SANDBOX_INBOX_URL: info.inboxUrl, HASHSCAN_SANDBOX_PID: String(child.pid) };
  if (format === 'json') {
    io.out.write(`${JSON.stringify({ url: info.url, inboxUrl: info.inboxUrl, pid: child.pid, env })}\n`);
  } else
    io.out.write(
      Object.entries(env)
        .map(([name, value]) => `export ${name}=${shellWord(value)}\n`)
        .join(''),
    );
  return 0;
}
