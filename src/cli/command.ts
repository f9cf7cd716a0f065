import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { Io } from './io.js';
import { UsageError } from './usage-error.js';

/** What every command runs with. */
export interface CommandContext {
  readonly io: Io;
  /** Aborted on the first Ctrl-C (SIGINT) or SIGTERM. */
  readonly signal: AbortSignal;
}

/** One command: its help, and what it does; resolves the exit status (its summary is in `registry.ts`). */
export interface Command {
  readonly name: string;
  readonly help: string;
  run(argv: readonly string[], context: CommandContext): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** `parseArgs`, strict, with usage errors that name the command. */
export function parseFlags<O extends Options>(argv: readonly string[], options: O, command: string) {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : 'invalid arguments';
    throw new UsageError(`${command}: ${message}\nRun \`hashscan-sms ${command} --help\` for usage.`);
  }
}

/** Refuses arguments a command does not take. */
export function noArguments(positionals: readonly string[], command: string): void {
  if (positionals.length > 0) throw new UsageError(`${command}: unexpected argument ${JSON.stringify(positionals[0])}`);
}

/** Whether the command's own arguments ask for its help (`-h`, `--help`, before any `--`). */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === '-h' || arg === '--help');
}

/** One of a fixed set of values, or a usage error. */
export function oneOf<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  flag: string,
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value as T;
}

/** Flags of the commands that print results. */
export const OUTPUT_OPTIONS = {
  format: { type: 'string', short: 'f' },
  quiet: { type: 'boolean', short: 'q' },
  verbose: { type: 'boolean', short: 'v' },
  wide: { type: 'boolean', short: 'w' },
} as const;

/** Flags of the commands that talk to a service. */
export const CONNECTION_OPTIONS = {
  sandbox: { type: 'boolean' },
  'base-url': { type: 'string' },
  timeout: { type: 'string' },
  retries: { type: 'string' },
} as const;

/** What a command's file names are called in its rows (`scan`: the file's path; `lookup`: the name after a hash). */
export interface NameField {
  readonly key: 'path' | 'name';
  /** When a row has one. */
  readonly when: string;
}

/** Help text shared by the lookup commands; `names` is the field their rows name files in. */
export function verdictHelp(names: NameField): string {
  return `Output:
  -f, --format FORMAT   table (default), ndjson, csv or json; results go to stdout
  -q, --quiet           no progress display and no summary on stderr
  -v, --verbose         log each request on stderr (keys and secrets masked)
  -w, --wide            table: cut no cell (whole digests and details); the table
                        cuts cells to fit only when stdout is a terminal

Decisions and exit status:
  --on-error POLICY     review (default) or block: the decision for a file or hash without a trustworthy answer
  --fail-on LEVEL       review (default): exit 2 on any review; block: review alone exits 0
  Exit 0 every input allowed, 1 at least one malicious (block), 2 at least one review
  and none malicious, 64 usage error (or a --resume state that does not verify),
  130 interrupted, 143 terminated, 141 stdout's reader left early (broken pipe).
  A failed lookup is never reported as clean: it is "error" / review.

File names are bytes: \`${names.key}\` (${names.when}) shows bytes that are not
UTF-8 as \\xNN, and \`${names.key}Base64\` (ndjson, json, csv) then holds the exact
name. CSV keeps names exact, even those a spreadsheet would take for a formula
(=, +, -, @).

Connection (flags override the environment):
  --sandbox             run against an in-process local sandbox (offline try-out)
  --base-url URL        default: $HASHSCAN_BASE_URL
  --api-key KEY         default: $HASHSCAN_API_KEY (prefer the variable: flags show in \`ps\`)
  --concurrency N       pin the lookups in flight to N (1 to 1024); default: adaptive,
                        from 16, growing while answers keep their latency and backing
                        off on 429, Retry-After, time-outs and rising latency
  --workers N           spread the lookups over N threads (1 to 64, default 1), each with
                        its own event loop, connections and limit (--concurrency is
                        split between them); one output, one resume state, one status
  --timeout MS          per attempt (default 10000)
  --retries N           retries of transient failures (default 2)`;
}
