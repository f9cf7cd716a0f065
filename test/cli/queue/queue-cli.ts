import { type ChildProcess, spawn } from 'node:child_process';
import { CLI_PATH } from '../build-cli.js';
import { cliEnv } from '../run-cli.js';

const API_KEY = 'queue-test-api-key';

/** The built CLI in a child process, with the service's key in its environment (and `env` on top). */
export function cli(
  args: readonly string[],
  baseUrl: string,
  env: Readonly<Record<string, string>> = {},
): ChildProcess {
  return spawn(process.execPath, [CLI_PATH, ...args], {
    env: cliEnv({ HASHSCAN_API_KEY: API_KEY, HASHSCAN_BASE_URL: baseUrl, ...env }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** The rows of an NDJSON output. */
export function ndjsonRows(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
