/**
 * The README's msw walkthrough (test/sandbox/readme.test.ts keeps the two identical).
 * Run: `npx vitest run examples/readme-msw.test.ts`.
 */
import { decide, HashScanClient, SmsClient } from 'hashscan-sms';
import { createHashScanHandlers, createSmsHandlers, recordFor, SANDBOX_ACCOUNTS } from 'hashscan-sms/testing';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';

const infected = recordFor('pretend this is malware'); // its md5, sha1 and sha256 all hit
const hashscan = createHashScanHandlers({
  baseUrl: 'https://hashscan.test',
  apiKey: 'test-key',
  records: [infected],
  faults: { ['b'.repeat(64)]: 'http-status' }, // this hash answers HTTP 503
});
const sms = createSmsHandlers({ baseUrl: 'https://sms.test' }); // the sandbox accounts and templates
const server = setupServer(...hashscan, ...sms);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

it('blocks a flagged file, allows an unflagged one, and reviews when the service misbehaves', async () => {
  const scanner = new HashScanClient({ baseUrl: 'https://hashscan.test', apiKey: 'test-key', retry: false });
  expect(decide(await scanner.scanOutcome(infected.md5))).toBe('block');
  expect(decide(await scanner.scanOutcome('a'.repeat(64)))).toBe('allow');
  expect(decide(await scanner.scanOutcome('b'.repeat(64)))).toBe('review');
  expect(hashscan.requests.map((request) => request.params.api_key)).toEqual(['***', '***', '***']);
});

it('sends a verification code with a sandbox template and account', async () => {
  const client = new SmsClient({ baseUrl: 'https://sms.test', ...SANDBOX_ACCOUNTS.member });
  await client.send({ phoneNumbers: '13800138000', templateCode: 'SMS_100000001', templateParam: { code: '482913' } });
  expect(sms.messages[0]?.content).toBe('Your verification code is 482913. It expires in 5 minutes.');
});
