// A project WITHOUT msw: `hashscan-sms/sandbox` must load and serve both services at the spec addresses,
// while `hashscan-sms/testing` (the msw handlers) fails for want of msw, as documented.
import assert from 'node:assert/strict';
import { tracingChannel } from 'node:diagnostics_channel';
import { ConfigurationError, HashScanClient, SCAN_CHANNEL, SmsClient } from 'hashscan-sms';
import {
  createHashLookupService,
  EICAR_RECORD,
  SANDBOX_FAULT_HASHES,
  SANDBOX_NOT_DETECTED_HASH,
  SANDBOX_TEMPLATES,
  startSandbox,
} from 'hashscan-sms/sandbox';

assert.throws(() => import.meta.resolve('msw'), 'this project must not have msw installed');
// Nor the optional peer @opentelemetry/api: the clients load and run without it, `telemetry` option or not.
assert.throws(() => import.meta.resolve('@opentelemetry/api'), 'this project must not have @opentelemetry/api');
const traced = [];
const record = (event) => (context) => traced.push([event, context.hash]);
const handlers = {
  start: record('start'),
  end: record('end'),
  asyncStart: record('asyncStart'),
  asyncEnd: record('asyncEnd'),
  error: record('error'),
};
await assert.rejects(import('hashscan-sms/testing'), (error) => /msw/.test(String(error?.message)));

const sandbox = await startSandbox();
try {
  // One base URL for both services: SMS at `/`, the lookup at `/hash_scan`.
  assert.equal(sandbox.hashScanUrl, sandbox.url);
  assert.equal(sandbox.smsUrl, sandbox.url);
  const client = new HashScanClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, retry: false, telemetry: {} });
  // The diagnostics_channel tracing channel needs no dependency.
  tracingChannel(SCAN_CHANNEL).subscribe(handlers);
  assert.equal((await client.scan(EICAR_RECORD.sha256)).verdict, 'malicious');
  tracingChannel(SCAN_CHANNEL).unsubscribe(handlers);
  assert.deepEqual(
    traced.map(([event]) => event),
    ['start', 'end', 'asyncStart', 'asyncEnd'],
  );
  assert.equal(traced[0][1], EICAR_RECORD.sha256);
  assert.equal((await client.scan(SANDBOX_NOT_DETECTED_HASH)).verdict, 'not_detected');
  const fault = await client.scanOutcome(SANDBOX_FAULT_HASHES['status-not-success']);
  assert.equal(fault.verdict, 'error');

  const sms = new SmsClient({
    baseUrl: sandbox.url,
    accessKeyId: sandbox.accessKeyId,
    accessKeySecret: sandbox.accessKeySecret,
    retry: false,
  });
  assert.ok('SMS_100000001' in SANDBOX_TEMPLATES);
  const sent = await sms.send({
    phoneNumbers: '13800000000',
    templateCode: 'SMS_100000001',
    templateParam: { code: '1' },
  });
  assert.equal(sent.code, 'OK');
  assert.deepEqual(
    sandbox.requests.map((request) => request.path),
    ['/hash_scan', '/hash_scan', '/hash_scan', '/'],
  );
  // The sandbox entry throws the root entry's classes (one shared chunk).
  assert.throws(() => createHashLookupService({ apiKey: '' }, () => {}), ConfigurationError);
} finally {
  await sandbox.close();
}
console.log(`no-msw smoke (import) ok: node ${process.version}`);
