// The application registers a global tracer provider through the API's ES module; the package loads the
// API's CommonJS build itself, lazily: both share the registration (the API keeps it on globalThis).
import assert from 'node:assert/strict';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { HashScanClient, SmsClient } from 'hashscan-sms';
import { EICAR_RECORD, startSandbox } from 'hashscan-sms/sandbox';

const exporter = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

const sandbox = await startSandbox();
try {
  const client = new HashScanClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, retry: false });
  assert.equal((await client.scan(EICAR_RECORD.sha256)).verdict, 'malicious');
  const sms = new SmsClient({
    baseUrl: sandbox.url,
    accessKeyId: sandbox.accessKeyId,
    accessKeySecret: sandbox.accessKeySecret,
    retry: false,
  });
  await sms.send({ phoneNumbers: '13800000000', templateCode: 'SMS_100000001', templateParam: { code: '1' } });
  const spans = exporter.getFinishedSpans();
  assert.deepEqual(
    spans.map((span) => span.name),
    ['GET', 'HashScanClient.scan', 'POST', 'SmsClient.send'],
  );
  assert.equal(spans[1].attributes['hashscan.verdict'], 'malicious');
  assert.match(String(spans[0].attributes['url.full']), /api_key=REDACTED&/);
  assert.ok(!JSON.stringify(spans.map((span) => span.attributes)).includes(sandbox.apiKey));
  // `telemetry: false` turns it off for one client.
  exporter.reset();
  await new HashScanClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, telemetry: false }).scan(EICAR_RECORD.md5);
  assert.deepEqual(exporter.getFinishedSpans(), []);
} finally {
  await sandbox.close();
}
console.log(`otel smoke (import) ok: node ${process.version}`);
