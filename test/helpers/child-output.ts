import type { ChildProcess } from 'node:child_process';

/** What a child process printed, and how it ended. */
export interface ChildOutput {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Collects a child's stdout and stderr (as UTF-8 text, a character split
 * across chunks kept whole) until it closes; `input`, if any, is its stdin.
 */
export function collect(child: ChildProcess, input?: string | Buffer): Promise<ChildOutput> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdin?.end(input);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
