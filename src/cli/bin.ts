/**
 * The process around {@link main}: signals, standard streams, exit status.
 * Kept apart so that tests can run `main()` in-process too.
 */
import { flushed } from './io.js';
import { main } from './main.js';
import { EXIT } from './usage-error.js';

/** Wires the process: signals, streams, exit status. */
async function runProcess(): Promise<void> {
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = (): void => {
    interrupts += 1;
    // A second Ctrl-C does not wait for the clean stop.
    if (interrupts > 1) process.exit(EXIT.interrupted);
    controller.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // `hashscan-sms scan … | head` closes stdout early: stop quietly, as Unix tools do.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT.ok);
  });
  const code = await main(
    process.argv.slice(2),
    { out: process.stdout, err: process.stderr, stdin: process.stdin, env: process.env },
    controller.signal,
  );
  // stdout to a pipe is asynchronous: exit only once every result is out.
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

void runProcess();
