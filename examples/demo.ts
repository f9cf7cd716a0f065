/**
 * A walk through hashscan-sms against the built-in local sandbox: no real
 * service, no key, no network beyond 127.0.0.1. Run with `npm run demo`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  decide,
  estimateSmsCount,
  HashScanClient,
  hashFile,
  renderTemplate,
  type ScanOutcome,
  SmsClient,
  SmsError,
} from 'hashscan-sms';
import { SANDBOX_FAULT_HASHES, SANDBOX_NOT_DETECTED_HASH, SANDBOX_TEMPLATES, startSandbox } from 'hashscan-sms/sandbox';

const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

const heading = (title: string): void => console.log(`\n== ${title}`);
const line = (label: string, value: string): void => console.log(`   ${label.padEnd(28)} ${value}`);
const short = (hash: string): string => (hash.length > 20 ? `${hash.slice(0, 12)}…` : JSON.stringify(hash));
const describeOutcome = (outcome: ScanOutcome): string =>
  outcome.verdict === 'error'
    ? `error ${outcome.error.code} → ${decide(outcome)}`
    : `${outcome.verdict} → ${decide(outcome)}`;

/** Scans one hash and shows what the caller would do, never letting an error read as "allow". */
async function show(client: HashScanClient, label: string, hash: string): Promise<void> {
  const outcome: ScanOutcome = await client.scanOutcome(hash); // never rejects: an error is an outcome
  line(label, `${short(hash)} ${describeOutcome(outcome)}`);
}

const sandbox = await startSandbox();
const workDir = await mkdtemp(join(tmpdir(), 'hashscan-sms-demo-'));
try {
  console.log(`hashscan-sms demo: sandbox listening on ${sandbox.url} (loopback only)`);
  console.log(`inbox (every send and lookup below, live in a browser): ${sandbox.inboxUrl}`);

  heading('1. Hash a file locally (streamed through node:crypto; only the hash leaves)');
  const file = join(workDir, 'eicar-test-file.txt');
  await writeFile(file, EICAR);
  const sha256 = await hashFile(file);
  line('sha256 of the EICAR test file', sha256);

  heading('2. Look up single hashes');
  const hashScan = new HashScanClient({
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.hashScanUrl,
    timeoutMs: 500,
    retry: { retries: 1, minDelayMs: 50, maxDelayMs: 200 },
  });
  const hit = await hashScan.scan(sha256);
  if (hit.verdict === 'malicious') {
    line('flagged file', `malicious (source ${hit.source}, first seen ${hit.data?.first_seen}) → ${decide(hit)}`);
  }
  await show(hashScan, 'same file by its MD5', hit.verdict === 'malicious' ? (hit.data?.md5 ?? '') : '');
  await show(hashScan, 'unflagged file', SANDBOX_NOT_DETECTED_HASH);
  await show(hashScan, 'abnormal: is_virus "false"', SANDBOX_FAULT_HASHES['is-virus-string']);
  await show(hashScan, 'abnormal: HTTP 503', SANDBOX_FAULT_HASHES['http-status']);
  await show(hashScan, 'abnormal: extra error fields', SANDBOX_FAULT_HASHES['extra-fields']);
  await show(hashScan, 'abnormal: stalled server', SANDBOX_FAULT_HASHES.timeout);
  await show(hashScan, 'invalid input', `sha256:${sha256}`);

  heading('3. A batch with duplicates (identical hashes cost one request)');
  const batchClient = new HashScanClient({ apiKey: sandbox.apiKey, baseUrl: sandbox.hashScanUrl, cache: false });
  const batch = [
    SANDBOX_NOT_DETECTED_HASH,
    sha256,
    SANDBOX_NOT_DETECTED_HASH.toUpperCase(),
    sha256,
    SANDBOX_FAULT_HASHES['status-not-success'],
    'not-a-hash',
    sha256,
  ];
  const before = sandbox.requests.length;
  const progress: string[] = [];
  const outcomes = await batchClient.scanMany(batch, {
    concurrency: 4,
    onProgress: ({ done, total }) => progress.push(`${done}/${total}`),
  });
  for (const [index, outcome] of outcomes.entries()) {
    line(`#${index} ${short(batch[index] ?? '')}`, describeOutcome(outcome));
  }
  line('progress reports', progress.join(' '));
  line('requests sent', `${sandbox.requests.length - before} for ${batch.length} inputs`);

  heading('4. Send SMS (AK/SK signed, HMAC-SHA1; the signature follows the method used)');
  const sms = new SmsClient({
    accessKeyId: sandbox.accessKeyId,
    accessKeySecret: sandbox.accessKeySecret,
    baseUrl: sandbox.smsUrl,
  });
  const template = SANDBOX_TEMPLATES.SMS_100000001 ?? '';
  const templateParam = { code: '482913' };
  for (const method of ['GET', 'POST'] as const) {
    const sent = await sms.send(
      { phoneNumbers: '13800138000', templateCode: 'SMS_100000001', templateParam, signName: 'DemoShop' },
      { method },
    );
    const message = sandbox.messages.find((m) => m.requestId === sent.requestId);
    line(`${method} send`, `${sent.code}, RequestId ${sent.requestId.slice(0, 8)}…, billed ${message?.billedCount}`);
  }
  const content = renderTemplate(template, templateParam);
  line('estimated billed count', `${estimateSmsCount(content)} for ${[...content].length} characters`);
  const long = await sms.send({
    phoneNumbers: ['13800138000', '13900139000'],
    templateCode: 'SMS_100000002',
    templateParam: { name: 'Ada Lovelace', order: 'A-2026-000123456789' },
  });
  const longMessage = sandbox.messages.find((m) => m.requestId === long.requestId);
  line('longer text, two recipients', `${longMessage?.segments} per recipient, billed ${longMessage?.billedCount}`);

  heading('5. SMS failures are typed, and nothing is sent twice');
  const wrongSecret = new SmsClient({
    accessKeyId: sandbox.accessKeyId,
    accessKeySecret: 'not-the-secret',
    baseUrl: sandbox.smsUrl,
  });
  const mismatch = await wrongSecret
    .send({ phoneNumbers: '13800138000', templateCode: 'SMS_100000001', templateParam })
    .catch((error: SmsError) => error);
  if (mismatch instanceof SmsError) {
    line('wrong secret', `${mismatch.code} (outcome ${mismatch.outcome}, RequestId "${mismatch.requestId}")`);
  }
  const requestsBefore = sandbox.requests.length;
  const invalid = await sms
    .send({ phoneNumbers: '13800138000', templateCode: 'SMS_100000001', templateParam: '{code: 1234}' })
    .catch((error: SmsError) => error);
  if (invalid instanceof SmsError) {
    line('template param not JSON', `${invalid.code}; requests sent: ${sandbox.requests.length - requestsBefore}`);
  }

  console.log('\nSecrets never appear above: the logs and errors of both clients mask them.');
  if (process.stdout.isTTY) {
    // Run by a person: keep the sandbox up so the inbox can be looked at.
    console.log(`\nEvery send and lookup above is in the inbox: ${sandbox.inboxUrl}\nCtrl-C to stop.`);
    await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
  }
} finally {
  await sandbox.close();
  await rm(workDir, { recursive: true, force: true });
}
