import { Readable, Writable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import type { CliOptions, CliRun } from './run-cli.js';

/** A stdout/stderr double that keeps the text; not a terminal. */
class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

/**
 * Runs `main()` in this process, with in-memory streams: the same command
 * line as the binary, visible to coverage. Tests of process matters
 * (signals, kill -9, another user, a terminal) run the binary only.
 */
export async function runMain(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const out = new Capture();
  const err = new Capture();
  const stdin = Readable.from(options.input === undefined ? [] : [options.input]);
  const env: NodeJS.ProcessEnv = { ...options.env };
  const code = await main(args, { out, err, stdin, env }, new AbortController().signal);
  return { code, signal: null, stdout: out.text, stderr: err.text };
}
