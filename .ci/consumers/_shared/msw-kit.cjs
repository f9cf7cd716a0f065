// The same as msw-kit.mjs through `require()` (the package's CJS builds; msw 3 is ESM-only, so this
// needs require(esm), which every Node msw 3 supports has).
const assert = require('node:assert/strict');
const { decide, HashScanClient, SmsClient, SmsError } = require('hashscan-sms');
const {
  createHashScanHandlers,
  createSmsHandlers,
  EICAR_RECORD,
  SANDBOX_ACCOUNTS,
  SANDBOX_FAULT_PHONE_NUMBERS,
} = require('hashscan-sms/testing');
const { setupServer } = require('msw/node');

const project = require('./package.json');
const msw = require('msw/package.json');
assert.equal(Number(msw.version.split('.')[0]), project.expectedMswMajor, `msw ${msw.version} installed`);
assert.match(require.resolve('hashscan-sms/testing'), /[\\/]dist[\\/]testing\.cjs$/);

async function main() {
  const hashscan = createHashScanHandlers({ baseUrl: 'https://hashscan.test', apiKey: 'test-key' });
  const sms = createSmsHandlers({ baseUrl: 'https://sms.test' });
  const server = setupServer(...hashscan, ...sms);
  server.listen(project.expectedMswMajor >= 3 ? { onUnhandledFrame: 'error' } : { onUnhandledRequest: 'error' });
  try {
    const scanner = new HashScanClient({ baseUrl: 'https://hashscan.test', apiKey: 'test-key', retry: false });
    assert.equal(decide(await scanner.scanOutcome(EICAR_RECORD.md5)), 'block');
    assert.equal(decide(await scanner.scanOutcome('a'.repeat(64))), 'allow');
    const client = new SmsClient({
      baseUrl: 'https://sms.test',
      ...SANDBOX_ACCOUNTS.member,
      method: 'GET',
      retry: false,
    });
    const sent = await client.send({
      phoneNumbers: '13800138000',
      templateCode: 'SMS_100000001',
      templateParam: { code: '1234' },
    });
    assert.equal(sent.code, 'OK');
    assert.equal(sms.messages.length, 1);
    await assert.rejects(
      client.send({
        phoneNumbers: SANDBOX_FAULT_PHONE_NUMBERS.recipient,
        templateCode: 'SMS_100000001',
        templateParam: { code: '1' },
      }),
      (error) => error instanceof SmsError && error.category === 'recipient',
    );
  } finally {
    server.close();
  }
  console.log(`msw ${msw.version} kit (require) ok: node ${process.version}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
