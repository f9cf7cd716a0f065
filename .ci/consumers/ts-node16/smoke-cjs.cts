// A CommonJS TypeScript file in the node16 project: `import` here compiles to `require()`, so
// TypeScript resolves the `require` condition and checks the CJS declarations (dist/index.d.cts).
import assert = require('node:assert/strict');

import {
  ConfigurationError,
  HashScanClient,
  HashScanSmsError,
  type ScanResult,
  SmsClient,
  VERSION,
} from 'hashscan-sms';

const client = new HashScanClient({ baseUrl: 'https://hashscan.example.com', apiKey: 'key', cache: false });
const scan: (hash: string) => Promise<ScanResult> = (hash) => client.scan(hash);
const sms = new SmsClient({ baseUrl: 'https://sms.example.com', accessKeyId: 'id', accessKeySecret: 'secret' });
assert.equal(typeof scan, 'function');
assert.equal(sms.method, 'POST');
assert.throws(
  () => new SmsClient({ baseUrl: 'http://sms.example.com', accessKeyId: 'id', accessKeySecret: 'secret' }),
  (error: unknown) => error instanceof ConfigurationError && error instanceof HashScanSmsError,
);
assert.match(require.resolve('hashscan-sms'), /[\\/]dist[\\/]index\.cjs$/);
const flags = process.execArgv.length > 0 ? ` ${process.execArgv.join(' ')}` : '';
console.log(`typescript (.cts, require types) smoke ok: node ${process.version}${flags}, hashscan-sms ${VERSION}`);
