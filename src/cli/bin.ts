/**
 * The process around {@link main}: signals, standard streams, exit status.
 * Kept apart so that tests can run `main()` in-process too.
 */
import { flushed } from './io.js';
import { main } from './main.js';
import { EXIT } from './usage-error.js';

/** Once stopped, the longest the process waits for its clean stop (a reader that never reads holds stdout). */
const STOP_GRACE_MS = 1500;

/** Wires the process: signals, streams, exit status. */
async function runProcess(): Promise<void> {
  const controller = new AbortController();
  /** Set when the run is stopped from outside: the exit status it ends with, whatever the command says. */
  let stopped: number | undefined;
  const stop = (code: number, why: string): void => {
    if (stopped !== undefined) {
      // A second Ctrl-C (or TERM) does not wait for the clean stop.
      process.exit(stopped);
    }
    stopped = code;
    controller.abort(new Error(why));
    // Whatever still waits (a blocked stdout, a lookup ending), the process ends soon: the resume
    // journal is written as results are printed, so the state is consistent at any instant.
    setTimeout(() => process.exit(code), STOP_GRACE_MS).unref();
  };
  process.on('SIGINT', () => stop(EXIT.interrupted, 'interrupted'));
  process.on('SIGTERM', () => stop(EXIT.terminated, 'terminated'));
  // `… | head` closes stdout early: stop, and say so with the status shells give SIGPIPE (a
  // pipeline under `set -o pipefail` must not read "every input allowed"). No stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    stop(error.code === 'EPIPE' ? EXIT.brokenPipe : EXIT.review, 'stdout closed');
  });
  // Nothing more can be said once stderr is gone; results still go to stdout.
  process.stderr.on('error', () => {});
  const code = await main(
    process.argv.slice(2),
    { out: process.stdout, err: process.stderr, stdin: process.stdin, env: process.env },
    controller.signal,
  );
  // stdout to a pipe is asynchronous: exit only once every result is out (unless stopped).
  await Promise.all([flushed(process.stdout, controller.signal), flushed(process.stderr, controller.signal)]);
  // A command stopped by the signal says "interrupted"; a server stopped by it ends normally (0). A broken
  // pipe always fails the run: some results never reached the reader.
  process.exit(stopped === EXIT.brokenPipe || (stopped !== undefined && code === EXIT.interrupted) ? stopped : code);
}

void runProcess();
