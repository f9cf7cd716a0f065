'use strict';
// The same through require(): `hashscan-sms/sandbox` loads without msw and without require(esm).
const assert = require('node:assert/strict');
const { ConfigurationError, HashScanClient } = require('hashscan-sms');
const { createHashLookupService, EICAR_RECORD, startSandbox } = require('hashscan-sms/sandbox');

assert.throws(() => require.resolve('msw'), 'this project must not have msw installed');
assert.throws(() => require.resolve('@opentelemetry/api'), 'this project must not have @opentelemetry/api installed');

(async () => {
  const sandbox = await startSandbox();
  try {
    const client = new HashScanClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, retry: false, telemetry: {} });
    assert.equal((await client.scan(EICAR_RECORD.md5)).verdict, 'malicious');
    assert.throws(() => createHashLookupService({ apiKey: '' }, () => {}), ConfigurationError);
  } finally {
    await sandbox.close();
  }
  console.log(`no-msw smoke (require) ok: node ${process.version}`);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
