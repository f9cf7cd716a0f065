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
  process.on('warning', (warning) => {
    guard.problems.push(`process warning: ${warning.name}: ${warning.message}`);
  });
  return guard;
}

// Once per process, however many test files it runs.
const guard = holder[KEY] ?? install();
holder[KEY] = guard;

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
