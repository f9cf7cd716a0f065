import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ROOT } from './config.js';

const run = promisify(execFile);

/** Runs `node ...args` in a fresh process from the repository root and parses the last line of its output as JSON. */
export async function nodeJson<T>(args: readonly string[]): Promise<T> {
  const { stdout } = await run(process.execPath, args, { cwd: ROOT, maxBuffer: 1 << 20 });
  const last = stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as T;
}
