// The testing kit as a user's test uses it, through `import`: the kit's hash and SMS handlers served
// by `setupServer` of the msw this project installed (2 or 3; package.json `expectedMswMajor`).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { decide, HashScanClient, SmsClient, SmsError } from 'hashscan-sms';
import {
  createHashScanHandlers,
  createSmsHandlers,
  EICAR_RECORD,
  recordFor,
  SANDBOX_ACCOUNTS,
  SANDBOX_FAULT_PHONE_NUMBERS,
} from 'hashscan-sms/testing';
import { setupServer } from 'msw/node';

const project = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const msw = createRequire(import.meta.url)('msw/package.json');
assert.equal(Number(msw.version.split('.')[0]), project.expectedMswMajor, `msw ${msw.version} installed`);

const infected = recordFor('pretend this is malware');
const hashscan = createHashScanHandlers({
  baseUrl: 'https://hashscan.test',
  apiKey: 'test-key',
  records: [EICAR_RECORD, infected],
  faults: { ['b'.repeat(64)]: 'http-status' },
});
const sms = createSmsHandlers({ baseUrl: 'https://sms.test' });
const server = setupServer(...hashscan, ...sms);
// msw 3 renamed the option; an unhandled request must fail either way.
server.listen(project.expectedMswMajor >= 3 ? { onUnhandledFrame: 'error' } : { onUnhandledRequest: 'error' });
try {
  const scanner = new HashScanClient({ baseUrl: 'https://hashscan.test', apiKey: 'test-key', retry: false });
  assert.equal((await scanner.scan(EICAR_RECORD.sha256)).verdict, 'malicious');
  assert.equal(decide(await scanner.scanOutcome(infected.md5)), 'block');
  assert.equal(decide(await scanner.scanOutcome('a'.repeat(64))), 'allow');
  const fault = await scanner.scanOutcome('b'.repeat(64));
  assert.equal(fault.verdict === 'error' && fault.error.code, 'HTTP_STATUS');

  const client = new SmsClient({ baseUrl: 'https://sms.test', ...SANDBOX_ACCOUNTS.member, retry: false });
  const sent = await client.send({
    phoneNumbers: '13800138000',
    templateCode: 'SMS_100000001',
    templateParam: { code: '482913' },
  });
  assert.equal(sent.code, 'OK');
  assert.equal(sms.messages[0]?.content, 'Your verification code is 482913. It expires in 5 minutes.');
  await assert.rejects(
    client.send({
      phoneNumbers: SANDBOX_FAULT_PHONE_NUMBERS.account,
      templateCode: 'SMS_100000001',
      templateParam: { code: '1' },
    }),
    (error) => error instanceof SmsError && error.category === 'account',
  );
  await assert.rejects(fetch('https://unhandled.test/'), 'an unhandled request must fail');
} finally {
  server.close();
}
console.log(`msw ${msw.version} kit (import) ok: node ${process.version}`);
