// The consumer smoke of every server runtime (Node, Bun, Deno): both clients against the package's
// sandbox (a loopback node:http server: every one of them can listen), and the fail-closed
// catalogue served over node:http, which must give the same typed errors everywhere.
// Deno runs it with --allow-read --allow-net only: every option is explicit, nothing reads the environment.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { decide, HashScanClient, HashScanError, SmsClient, SmsError } from 'hashscan-sms';
import { EICAR_RECORD, SANDBOX_NOT_DETECTED_HASH, startSandbox } from 'hashscan-sms/sandbox';
import { answerFor, EXPECTED, runCatalogue } from './catalogue.mjs';

const runtime = globalThis.Deno
  ? `deno ${Deno.version.deno}`
  : globalThis.Bun
    ? `bun ${Bun.version}`
    : `node ${process.version}`;

const sandbox = await startSandbox();
try {
  const client = new HashScanClient({ baseUrl: sandbox.hashScanUrl, apiKey: sandbox.apiKey, retry: false });
  assert.equal(decide(await client.scan(EICAR_RECORD.sha256)), 'block');
  assert.equal((await client.scan(SANDBOX_NOT_DETECTED_HASH)).verdict, 'not_detected');
  const many = await client.scanMany([EICAR_RECORD.md5, SANDBOX_NOT_DETECTED_HASH]);
  assert.deepEqual(
    many.map((outcome) => outcome.verdict),
    ['malicious', 'not_detected'],
  );
  for (const method of ['GET', 'POST']) {
    const sms = new SmsClient({
      baseUrl: sandbox.smsUrl,
      accessKeyId: sandbox.accessKeyId,
      accessKeySecret: sandbox.accessKeySecret,
      method,
      retry: false,
    });
    const sent = await sms.send({
      phoneNumbers: '13800000000',
      templateCode: 'SMS_100000001',
      templateParam: { code: '123456' },
    });
    assert.equal(sent.code, 'OK', method);
  }
  // A wrong secret: the sandbox refuses the signature, and the client says so with its typed error.
  const wrong = new SmsClient({
    baseUrl: sandbox.smsUrl,
    accessKeyId: sandbox.accessKeyId,
    accessKeySecret: 'wrong',
    retry: false,
  });
  const refusal = await wrong
    .send({ phoneNumbers: '13800000000', templateCode: 'SMS_100000001', templateParam: { code: '1' } })
    .catch((error) => error);
  assert.ok(refusal instanceof SmsError, String(refusal));
  assert.equal(refusal.code, 'SignatureDoesNotMatch');
} finally {
  await sandbox.close();
}

const server = createServer((request, response) => {
  const answer = answerFor(`http://127.0.0.1${request.url}`);
  response.writeHead(answer.status, { 'content-type': answer.type });
  response.end(answer.body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
try {
  const { port } = server.address();
  const client = new HashScanClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'key', retry: false });
  assert.deepEqual(await runCatalogue(client, { HashScanError }), EXPECTED);
} finally {
  server.close();
}
console.log(`runtime smoke ok: ${runtime}`);
