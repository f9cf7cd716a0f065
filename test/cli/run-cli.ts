import { type ChildProcess, spawn } from 'node:child_process';
import { expect } from 'vitest';
import { type ChildOutput, collect } from '../helpers/child-output.js';
import { CLI_PATH } from './build-cli.js';

export { collect };

/** What a CLI run printed, and how it ended. */
export type CliRun = ChildOutput;

export interface CliOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly input?: string;
  readonly cwd?: string;
  readonly uid?: number;
  readonly gid?: number;
  /** Another copy of the built CLI to run (default: the one test/cli/build-cli.ts built). */
  readonly cliPath?: string;
}

/** A clean environment: no HASHSCAN_/SMS_ variables of the machine leak into a test. */
export function cliEnv(extra: Readonly<Record<string, string | undefined>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(HASHSCAN_|SMS_)/.test(name)) env[name] = value;
  }
  return { ...env, ...extra };
}

/** Starts the built CLI (`node cli.mjs …`) in a child process. */
export function startCli(args: readonly string[], options: CliOptions = {}): ChildProcess {
  return spawn(process.execPath, [options.cliPath ?? CLI_PATH, ...args], {
    env: cliEnv(options.env),
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid ?? options.uid }),
  });
}

/** Runs the built CLI to its end and collects its output. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const child = startCli(args, options);
  return collect(child, options.input);
}

/** NDJSON back into objects; every line must parse. */
export function parseNdjson(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A strict RFC 4180 reader (quoted fields, doubled quotes, CRLF records), for parsing the CLI's CSV back. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i += 1;
      } else {
        field += c;
        i += 1;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
      i += 1;
    } else if (c === ',') {
      row.push(field);
      field = '';
      i += 1;
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 2;
    } else if (c === '"' || c === '\n' || c === '\r') {
      throw new Error(`bare ${JSON.stringify(c)} at ${i}`);
    } else {
      field += c;
      i += 1;
    }
  }
  if (quoted || field !== '' || row.length > 0) throw new Error('CSV does not end with CRLF');
  return rows;
}

/** CSV with a header into objects keyed by the header. */
export function csvRecords(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (header === undefined) throw new Error('no header');
  return rows.map((row) => {
    expect(row.length).toBe(header.length);
    return Object.fromEntries(header.map((name, i) => [name, row[i] as string]));
  });
}

/**
 * Runs the CLI in a real pseudo-terminal (util-linux `script`): stdout and
 * stderr are both the terminal, and `screen` is what the terminal was sent, raw.
 */
export function inTerminal(
  args: readonly string[],
  options: {
    readonly env: Readonly<Record<string, string>>;
    readonly columns: number;
    readonly encoding: BufferEncoding;
  },
): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, CLI_PATH, ...args].map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: cliEnv({ ...options.env, COLUMNS: String(options.columns) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let screen = '';
  child.stdout?.setEncoding(options.encoding).on('data', (chunk: string) => {
    screen += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, screen }));
  });
}

/** Output with each `checkedAt` time replaced: two runs that got the same answers at other moments compare equal. */
export function timeless(text: string): string {
  return text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, '<checkedAt>');
}
