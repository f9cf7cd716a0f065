// `hashscan-sms/sandbox`, not `hashscan-sms/testing`: that entry loads msw, which the CLI must never need.
import { ConfigurationError } from '../../errors/configuration-error.js';
import {
  DEFAULT_INBOX_LIMIT,
  EICAR_RECORD,
  SANDBOX_FAULT_HASHES,
  SANDBOX_NOT_DETECTED_HASH,
  startSandbox,
} from '../../sandbox/index.js';
import { type Command, noArguments, oneOf, parseFlags } from '../command.js';
import { flagNumber } from '../config.js';
import { UsageError } from '../usage-error.js';
import { detachSandbox } from './sandbox-detach.js';

const OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string', short: 'p' },
  format: { type: 'string', short: 'f' },
  detach: { type: 'boolean', short: 'd' },
} as const;

const HELP = `Usage: hashscan-sms sandbox [--port N] [--host ADDRESS] [--format text|json] [--detach]

Starts the local sandbox (hash lookup and SMS doubles) in the foreground and
prints its base URLs, keys and the environment variables to export, and the
address of its inbox: a web page showing every send and lookup as it
arrives. Ctrl-C stops it. The keys are the sandbox's public test keys, not
secrets.

Options:
  -p, --port N          port to listen on (default: a free one)
  --host ADDRESS        interface (default 127.0.0.1; anything else exposes it,
                        and then the inbox needs a token: SANDBOX_INBOX_TOKEN)
  -f, --format FORMAT   text (default) or json (one line, for scripts)
  -d, --detach          start it in the background and exit once it listens,
                        printing only the \`export\` lines (with
                        HASHSCAN_SANDBOX_INBOX_URL, its inbox, and
                        HASHSCAN_SANDBOX_PID, to stop it), for \`eval\`

Examples:
  hashscan-sms sandbox --port 8787
  # in a script: start it, use it, stop it
  eval "$(hashscan-sms sandbox --detach)"
  hashscan-sms lookup ${EICAR_RECORD.sha256}
  kill "$HASHSCAN_SANDBOX_PID"`;

export const sandboxCommand: Command = {
  name: 'sandbox',
  help: HELP,
  async run(argv, { io, signal }) {
    const { values, positionals } = parseFlags(argv, OPTIONS, 'sandbox');
    noArguments(positionals, 'sandbox');
    const format = oneOf(values.format, ['text', 'json'] as const, 'format', 'text');
    const port = flagNumber(values.port, 'port', { min: 0, max: 65_535 });
    if (values.detach === true) {
      const where = [
        ...(values.host === undefined ? [] : ['--host', values.host]),
        ...(port === undefined ? [] : ['--port', String(port)]),
      ];
      return detachSandbox(where, format, io);
    }
    // From the environment, never a flag: arguments show in `ps`. Never printed.
    const token = io.env.SANDBOX_INBOX_TOKEN;
    const sandbox = await startSandbox({
      ...(values.host === undefined ? {} : { host: values.host }),
      ...(port === undefined ? {} : { port }),
      ...(token === undefined || token === '' ? {} : { inbox: { token } }),
      // It may run for days: what it records is bounded like its inbox.
      recordLimit: DEFAULT_INBOX_LIMIT,
    }).catch((error: NodeJS.ErrnoException) => {
      if (error instanceof ConfigurationError) {
        throw new UsageError(`sandbox: ${error.message.replace('inbox.token', 'SANDBOX_INBOX_TOKEN')}`);
      }
      throw new UsageError(`sandbox: cannot listen: ${error.code ?? error.message}`);
    });
    const env = {
      HASHSCAN_BASE_URL: sandbox.hashScanUrl,
      HASHSCAN_API_KEY: sandbox.apiKey,
      SMS_BASE_URL: sandbox.smsUrl,
      SMS_ACCESS_KEY_ID: sandbox.accessKeyId,
      SMS_ACCESS_KEY_SECRET: sandbox.accessKeySecret,
    };
    if (format === 'json') {
      io.out.write(
        `${JSON.stringify({ url: sandbox.url, hashScanUrl: sandbox.hashScanUrl, smsUrl: sandbox.smsUrl, inboxUrl: sandbox.inboxUrl, env })}\n`,
      );
    } else {
      io.out.write(
        [
          `hashscan-sms sandbox listening on ${sandbox.url}`,
          `  hash lookup: ${sandbox.hashScanUrl.replace(/\/$/, '')}/hash_scan`,
          `  SMS:         ${sandbox.smsUrl.replace(/\/$/, '')}/`,
          `  inbox:       ${sandbox.inboxUrl}   (open in a browser: every send and lookup, live)`,
          '',
          'Export (sandbox test keys, not secrets):',
          ...Object.entries(env).map(([name, value]) => `export ${name}=${value}`),
          '',
          'Try:',
          `  hashscan-sms lookup ${EICAR_RECORD.sha256}   # malicious (EICAR)`,
          `  hashscan-sms lookup ${SANDBOX_NOT_DETECTED_HASH}   # not detected`,
          `  hashscan-sms lookup ${SANDBOX_FAULT_HASHES.timeout}   # a time-out: review`,
          '',
          'Ctrl-C to stop.',
          '',
        ].join('\n'),
      );
    }
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await sandbox.close();
    if (format === 'text') io.err.write('hashscan-sms sandbox stopped\n');
    return 0;
  },
};
