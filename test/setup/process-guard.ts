/**
 * Suite-wide guard (vitest `setupFiles`): an unhandled rejection or a process
 * warning (MaxListenersExceededWarning, a deprecation, …) anywhere in the
 * suite fails the test during which it happened, or the file when it comes
 * after the last test. Warnings are fixed at their root, never silenced.
 */
import { inspect } from 'node:util';
import { afterAll, afterEach } from 'vitest';

interface Guard {
  readonly problems: string[];
}

const KEY = Symbol.for('hashscan-sms.test.process-guard');
const holder = globalThis as { [KEY]?: Guard };

function install(): Guard {
  const guard: Guard = { problems: [] };
  // util.inspect, not String(): a rejection reason may be anything, even an object whose toString throws.
  process.on('unhandledRejection', (reason) => {
    guard.problems.push(`unhandled rejection: ${inspect(reason, { depth: 2 })}`);
  });
  process.on('warning', (warning: Error & { code?: string }) => {
    const code = warning.code === undefined ? '' : ` [${warning.code}]`;
    guard.problems.push(`process warning: ${warning.name}${code}: ${warning.message}`);
  });
  return guard;
}

// Once per process, however many test files it runs.
const guard = holder[KEY] ?? install();
holder[KEY] = guard;

/**
 * Takes the warnings of `code` off the guard's list, for a test whose subject is that warning (the package's own,
 * `HashScanSmsWarning`): how many there were. Any other warning still fails the test.
 */
export function claimProcessWarnings(code: string): number {
  const before = guard.problems.length;
  const rest = guard.problems.filter(
    (problem) => !problem.startsWith(`process warning: HashScanSmsWarning [${code}]:`),
  );
  guard.problems.splice(0, guard.problems.length, ...rest);
  return before - rest.length;
}

function check(): void {
  if (guard.problems.length === 0) return;
  const found = guard.problems.splice(0);
  throw new Error(`process guard:\n${found.join('\n')}`);
}

afterEach(async () => {
  // Rejections are reported once the microtask queue drains, warnings on the next tick.
  await new Promise((resolve) => setImmediate(resolve));
  check();
});

afterAll(async () => {
  await new Promise((resolve) => setImmediate(resolve));
  check();
});
