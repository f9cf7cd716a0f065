/**
 * Stands in for `ky` in `dist/cli.js` (an esbuild alias, see tsup.config.ts).
 *
 * The CLI sends every request through its undici dispatcher, so the clients
 * never start ky there; but evaluating ky's module would slow every
 * start-up (its feature test builds a `Request`, which loads Node's
 * internal fetch; the figure is in BENCHMARKS.md). Should a future command build a client without a
 * dispatcher, it fails loudly on the first request instead of sending
 * some other way.
 */
const kyAbsent = {
  create(): never {
    throw new Error('hashscan-sms CLI: ky is not bundled; build clients with the CLI dispatcher (config.ts)');
  },
};

export default kyAbsent;
