/**
 * ky is evaluated by the first request, not by importing the package (`src/transport/http/ky-lazy.ts`):
 * evaluating it loads Node's internal `fetch` (undici), which is what a cold import would otherwise pay.
 * Builds the library entries with tsup's own configuration and loads them in a child `node`, as an
 * application does; `process.moduleLoadList` tells whether Node's undici has been loaded.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { LIBRARY_DIR as OUT_DIR } from '../../build-library.js';

/** Imports the package, then scans once against a loopback service; prints whether undici was loaded at each point. */
function probe(load: string): string {
  return `
const undici = () => process.moduleLoadList.some((name) => name.includes('undici'));
const { HashScanClient } = ${load};
const afterImport = undici();
const client = new HashScanClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1', cache: false, telemetry: false });
const afterConstructor = undici();
const { createServer } = require('node:http');
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ status: 'success', is_virus: false, message: 'No active service detected this file' }));
});
server.listen(0, '127.0.0.1', async () => {
  const scanner = new HashScanClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:' + server.address().port, cache: false, telemetry: false });
  const [first, second] = await Promise.all([scanner.scanOutcome('0'.repeat(64)), scanner.scanOutcome('1'.repeat(64))]);
  server.close();
  console.log(JSON.stringify({ afterImport, afterConstructor, verdicts: [first.verdict, second.verdict], afterScan: undici() }));
});`;
}

function run(args: string[]): unknown {
  const child = spawnSync(process.execPath, args, { cwd: OUT_DIR, encoding: 'utf8', timeout: 30_000 });
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout);
}

const EXPECTED = {
  afterImport: false,
  afterConstructor: false,
  verdicts: ['not_detected', 'not_detected'],
  afterScan: true,
};

describe('ky and Node’s fetch are loaded by the first request, not by the import (the built ESM and CJS entries)', () => {
  it('ESM: import', () => {
    const script = `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);\n${probe("await import('./index.js')")}`;
    expect(run(['--input-type=module', '-e', script])).toEqual(EXPECTED);
  });

  it('CJS: require()', () => {
    expect(run(['-e', `(async () => {${probe("require('./index.cjs')")}})()`])).toEqual(EXPECTED);
  });
});
