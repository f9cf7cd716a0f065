/**
 * The `hashscan-sms` command: argument parsing and dispatch only. Each
 * command lives in `commands/`, built on the package's public API.
 */
// The constant alone, not the package root: `--version` loads no client code.

import { SecretMask } from '../secrets/secret-mask.js';
import { VERSION } from '../version.js';
import { wantsHelp } from './command.js';
import { type Io, messageOf } from './io.js';
import { type OtelSession, startOtel, takeOtelFlag } from './otel-session.js';
import { COMMANDS, type CommandEntry, groupHelp } from './registry.js';
import { EXIT, UsageError } from './usage-error.js';

const HELP = `Usage: hashscan-sms <command> [options]

Commands:
${COMMANDS.map((command) => `  ${command.name.padEnd(10)}  ${command.summary}`).join('\n')}

Options:
  -h, --help     help (also after a command: hashscan-sms scan --help)
  -V, --version  the version
  --otel         spans and metrics of the run through the OpenTelemetry Node SDK
                 (@opentelemetry/sdk-node, installed by you), configured by the
                 standard OTEL_* variables (OTLP to localhost by default)

Configuration comes from the clients' environment variables (HASHSCAN_API_KEY,
HASHSCAN_BASE_URL, SMS_ACCESS_KEY_ID, SMS_ACCESS_KEY_SECRET, SMS_BASE_URL);
flags override them. --sandbox tries any command offline.

Examples:
  hashscan-sms scan --sandbox ./examples
  hashscan-sms lookup --input stored-hashes.txt --format ndjson --resume run.state
  hashscan-sms sms sign --method GET --query 'AccessKeyId=…&Action=SendSms&…'
  hashscan-sms sandbox --port 8787`;

/** Finds the command of `argv` (two words for `sms send` and `sms sign`) and its own arguments. */
function route(argv: readonly string[]): { command: CommandEntry; rest: readonly string[] } | undefined {
  const [first, second] = argv;
  const two = COMMANDS.find((command) => command.name === `${first} ${second}`);
  if (two !== undefined) return { command: two, rest: argv.slice(2) };
  const one = COMMANDS.find((command) => command.name === first);
  return one === undefined ? undefined : { command: one, rest: argv.slice(1) };
}

/** Runs the command line; resolves the exit status. Never throws. */
export async function main(args: readonly string[], io: Io, signal: AbortSignal): Promise<number> {
  const { argv, otel } = takeOtelFlag(args);
  if (!otel) return run(argv, io, signal);
  let session: OtelSession;
  try {
    session = await startOtel(io.env, process.cwd());
  } catch (error) {
    return failed(error, io);
  }
  const code = await run(argv, io, signal);
  const problem = await session.shutdown();
  if (problem !== undefined) io.err.write(`hashscan-sms: --otel: ${problem}\n`);
  return code;
}

async function run(argv: readonly string[], io: Io, signal: AbortSignal): Promise<number> {
  try {
    const [first] = argv;
    if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
      io.out.write(`${HELP}\n`);
      return first === undefined ? EXIT.usage : EXIT.ok;
    }
    if (first === '-V' || first === '--version') {
      io.out.write(`${VERSION}\n`);
      return EXIT.ok;
    }
    const routed = route(argv);
    const group = routed === undefined ? groupHelp(first) : undefined;
    if (group !== undefined) {
      // `sms --help` is help (0); `sms` alone or `sms oops` names no command: the same help, a usage error.
      const asked = argv.length === 2 && ['-h', '--help', 'help'].includes(argv[1] as string);
      if (asked) io.out.write(`${group}\n`);
      else
        io.err.write(
          `${argv.length > 1 ? `hashscan-sms: unknown command ${JSON.stringify(argv.join(' '))}\n` : ''}${group}\n`,
        );
      return asked ? EXIT.ok : EXIT.usage;
    }
    if (routed === undefined) {
      throw new UsageError(`unknown command ${JSON.stringify(first)}\nRun \`hashscan-sms --help\` for the commands.`);
    }
    const command = await routed.command.load();
    if (wantsHelp(routed.rest)) {
      io.out.write(`${command.help}\n`);
      return EXIT.ok;
    }
    return await command.run(routed.rest, { io, signal });
  } catch (error) {
    return failed(error, io);
  }
}

/** The message and exit status of an error that ends the command. */
function failed(error: unknown, io: Io): number {
  // Messages may quote configuration: mask what the environment holds as secrets.
  const mask = new SecretMask();
  for (const name of ['HASHSCAN_API_KEY', 'SMS_ACCESS_KEY_SECRET']) mask.add(io.env[name]);
  if (error instanceof UsageError) {
    io.err.write(`hashscan-sms: ${mask.mask(error.message)}\n`);
    return EXIT.usage;
  }
  io.err.write(`hashscan-sms: unexpected error: ${mask.mask(messageOf(error))}\n`);
  return 70; // EX_SOFTWARE
}
