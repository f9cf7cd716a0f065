import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
// Node 25+ exposes an experimental `localStorage` global that warns when read without
// --localstorage-file; msw's cookie store reads it. The tests use no web storage, so it is off.
const nodeMajor = Number(process.versions.node.split('.')[0]);
const execArgv = nodeMajor >= 25 ? ['--no-experimental-webstorage'] : [];

export default defineConfig({
  // Examples import the package by name, as users do; in this repo that name means the sources
  // (tsconfig `paths` does the same for tsc and tsx). The packed tarball is tested in .ci/run.
  resolve: {
    alias: [
      { find: /^hashscan-sms\/testing$/, replacement: source('./src/testing/index.ts') },
      { find: /^hashscan-sms\/sandbox$/, replacement: source('./src/sandbox/index.ts') },
      { find: /^hashscan-sms\/hashing$/, replacement: source('./src/hashing/index.ts') },
      { find: /^hashscan-sms\/signing$/, replacement: source('./src/sms/signing/index.ts') },
      { find: /^hashscan-sms\/fleet$/, replacement: source('./src/fleet/index.ts') },
      { find: /^hashscan-sms$/, replacement: source('./src/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    environment: 'node',
    // Its own TMPDIR per run; a real Redis for the shared-cache tests (REDIS_URL, or a throw-away redis-server);
    // the CLI, bundled once for the tests that run it as a child process (test/cli/); and the
    // replica scripts of the fleet and limits tests, bundled once for their many processes; and the
    // library built as published, for the tests that load it in a child `node` (rebuilt when its sources change).
    globalSetup: [
      './test/global-setup.ts',
      './test/global-redis.ts',
      './test/cli/build-cli.ts',
      './test/build-replicas.ts',
      './test/build-library.ts',
    ],
    // Fails the run on any unhandled rejection or process warning, in any test.
    setupFiles: ['test/setup/process-guard.ts'],
    // Timing is not what these tests measure: a loaded two-core machine under coverage runs a
    // CPU-bound test several times slower than a quiet one, so the limit only catches hangs.
    testTimeout: 30_000,
    // Most test files wait on child processes, Redis, sockets and timers rather than compute:
    // four at a time keep a two-core machine busy, where three left part of it idle.
    maxWorkers: 4,
    execArgv,
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      // Code that only runs in a child process or a worker thread (the bin, the hashing and lookup
      // threads, `lookup --queue` and `worker`, the --otel session) is not seen by in-process coverage;
      // test/cli and test/fleet run it through the real binary in child processes instead.
      exclude: [
        'src/cli/bin.ts',
        'src/cli/hashing/hash-thread.ts',
        'src/cli/walk-thread/walk-thread.ts',
        'src/cli/lookups/lookup-thread.ts',
        'src/cli/lookups/on-threads.ts',
        'src/cli/otel-session.ts',
        'src/cli/queue/**',
        // `scan --inventory` and `scan s3://` drive these from the CLI's own process only: test/cli/inventory
        // and test/cli/sources run them through the real binary (the store, schema, driver and digest rules
        // have unit tests of their own and stay counted).
        'src/cli/inventory/inventory-run.ts',
        'src/cli/inventory/merge-batches.ts',
        'src/cli/sources/objects.ts',
        'src/cli/sources/s3/connect.ts',
        'src/cli/sources/s3/list-objects.ts',
        'src/cli/sources/s3/object-digest.ts',
        'src/cli/sources/s3/scan-objects.ts',
      ],
      reporter: ['text-summary', 'text'],
      thresholds: { lines: 90, branches: 85 },
    },
  },
});
