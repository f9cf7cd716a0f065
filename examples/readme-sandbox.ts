/**
 * The README's sandbox walkthrough (test/sandbox/readme.test.ts keeps the two identical).
 * Run: `npx tsx examples/readme-sandbox.ts`.
 */
import assert from 'node:assert/strict';
import { decide, HashScanClient, SmsClient } from 'hashscan-sms';
import { EICAR_RECORD, SANDBOX_FAULT_HASHES, SANDBOX_NOT_DETECTED_HASH, startSandbox } from 'hashscan-sms/sandbox';

const sandbox = await startSandbox(); // http://127.0.0.1:<free port>; needs no msw
try {
  // One base URL for both services, as the specs lay them out: SMS at `/`, lookups at `/hash_scan`.
  const scanner = new HashScanClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey }); // 'sandbox-api-key'
  assert.equal(decide(await scanner.scanOutcome(EICAR_RECORD.sha256)), 'block');
  assert.equal(decide(await scanner.scanOutcome(SANDBOX_NOT_DETECTED_HASH)), 'allow');
  const broken = await scanner.scanOutcome(SANDBOX_FAULT_HASHES['status-not-success']);
  assert.equal(broken.verdict === 'error' && broken.error.code, 'STATUS_NOT_SUCCESS');
  assert.equal(decide(broken), 'review'); // an abnormal answer is never "not detected"

  const sms = new SmsClient({
    baseUrl: sandbox.url,
    accessKeyId: sandbox.accessKeyId, // 'sandbox-access-key-id' (the member account)
    accessKeySecret: sandbox.accessKeySecret, // 'sandbox-access-key-secret'
  });
  const sent = await sms.send({
    phoneNumbers: ['13800138000', '13900139000'],
    templateCode: 'SMS_100000001', // 'Your verification code is ${code}. It expires in 5 minutes.'
    templateParam: { code: '482913' },
    signName: 'MyShop',
  });
  assert.equal(sent.code, 'OK');
  const [message] = sandbox.messages;
  assert.equal(message?.content, 'Your verification code is 482913. It expires in 5 minutes.');
  assert.equal(message?.billedCount, 4); // 2 recipients × 2 messages (59 characters, 1 per 50)
  console.log(`sandbox walkthrough ok: ${sandbox.requests.length} requests, RequestId ${sent.requestId}`);
} finally {
  await sandbox.close();
}
