/**
 * The commands, by name, each loaded only when it runs: `--version`,
 * `--help` and `sms sign` never load the HTTP stack (undici, zod), and
 * `scan` never loads the SMS commands. Start-up counts in every CLI figure.
 */
import type { Command } from './command.js';

/** A command's name and one-line summary (for the top-level help), and how to load it. */
export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  load(): Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'scan',
    summary: 'hash files and folders and look the hashes up',
    load: async () => (await import('./commands/scan.js')).scanCommand,
  },
  {
    name: 'lookup',
    summary: 'look up hashes from arguments, a file or stdin',
    load: async () => (await import('./commands/lookup.js')).lookupCommand,
  },
  {
    name: 'worker',
    summary: 'process the chunks of `lookup --queue` runs (BullMQ), until stopped',
    load: async () => (await import('./queue/worker-command.js')).workerCommand,
  },
  {
    name: 'sms send',
    summary: 'send one template SMS',
    load: async () => (await import('./commands/sms-send.js')).smsSendCommand,
  },
  {
    name: 'sms sign',
    summary: 'print the canonical query and string-to-sign of a request',
    load: async () => (await import('./commands/sms-sign.js')).smsSignCommand,
  },
  {
    name: 'sandbox',
    summary: 'run the local sandbox in the foreground',
    load: async () => (await import('./commands/sandbox.js')).sandboxCommand,
  },
];

/** The help of a group of two-word commands (`sms`): its commands and where their options are. */
export function groupHelp(group: string): string | undefined {
  const members = COMMANDS.filter((command) => command.name.startsWith(`${group} `));
  if (members.length === 0) return undefined;
  const words = members.map((command) => command.name.slice(group.length + 1));
  return [
    `Usage: hashscan-sms ${group} <${words.join('|')}> [options]`,
    '',
    'Commands:',
    ...members.map((command) => `  ${command.name.padEnd(10)}  ${command.summary}`),
    '',
    `Each command's options: ${members.map((command) => `hashscan-sms ${command.name} --help`).join(', ')}`,
  ].join('\n');
}
