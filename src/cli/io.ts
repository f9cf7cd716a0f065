import type { Logger } from '../index.js';
import type { SecretMask } from '../secrets/secret-mask.js';

/** Where a command writes: results to `out` (stdout), everything else to `err` (stderr). */
export interface Io {
  readonly out: NodeJS.WritableStream & { readonly isTTY?: boolean };
  readonly err: NodeJS.WritableStream & { readonly isTTY?: boolean; readonly columns?: number };
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
}

/** Diagnostics on stderr, masked; `--verbose` adds the clients' request log. */
export class Diagnostics {
  constructor(
    readonly io: Io,
    readonly secrets: SecretMask,
    readonly verbose: boolean,
  ) {}

  /** One line on stderr, masked. */
  line(text: string): void {
    this.io.err.write(`${this.secrets.mask(text)}\n`);
  }

  /** The clients' logger: silent unless `--verbose`, and masked either way. */
  logger(): Logger | undefined {
    if (!this.verbose) return undefined;
    const write =
      (level: string) =>
      (message: string, details?: Record<string, unknown>): void => {
        this.line(`${level} ${message}${details === undefined ? '' : ` ${safeJson(details)}`}`);
      };
    return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '[unserializable]';
  }
}

/** Whether `stream` wants a `drain` before more is written (checked first: an `await` per result costs). */
export function behind(stream: NodeJS.WritableStream): boolean {
  return (stream as { writableNeedDrain?: boolean }).writableNeedDrain === true;
}

/**
 * Waits while `stream` holds more than its high-water mark. Results are
 * produced faster than a pipe drains; without this pause a long run would
 * queue its whole output in memory.
 */
export async function backpressure(stream: NodeJS.WritableStream, signal?: AbortSignal): Promise<void> {
  if (!behind(stream) || signal?.aborted === true) return;
  // A reader that stopped reading must not hold a SIGTERM or a broken pipe off: the signal ends the wait.
  await new Promise<void>((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    stream.once('drain', done);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Resolves once everything written to `stream` so far has been handed to the operating system. */
export function flushed(stream: NodeJS.WritableStream, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    // Stopped (a signal, a closed pipe) while a reader holds stdout: do not wait for it.
    signal?.addEventListener('abort', () => resolve(), { once: true });
    stream.write('', () => resolve());
  });
}

/** A message for any thrown value, without calling `String()` on unchecked input. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'unknown error';
}
