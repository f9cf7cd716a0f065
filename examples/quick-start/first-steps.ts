import { decide, HashScanClient, SmsClient } from 'hashscan-sms';

// Configured from HASHSCAN_API_KEY, HASHSCAN_BASE_URL, SMS_ACCESS_KEY_ID, SMS_ACCESS_KEY_SECRET and SMS_BASE_URL.
const scanner = new HashScanClient();
const sms = new SmsClient();

// A first lookup (the EICAR test file's SHA-256): scanOutcome() never rejects, decide() never allows an error.
const outcome = await scanner.scanOutcome('275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f');
console.log(outcome.verdict, decide(outcome)); // malicious block

// A first send: one template SMS, signed with your access key.
const { requestId } = await sms.send({
  phoneNumbers: '13800138000',
  templateCode: 'SMS_100000001',
  templateParam: { code: '482913' },
});
console.log('sent', requestId);
