'use strict';
// The same through require(), the CommonJS build of the package.
const assert = require('node:assert/strict');
const { trace } = require('@opentelemetry/api');
const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');
const { HashScanClient } = require('hashscan-sms');
const { EICAR_RECORD, startSandbox } = require('hashscan-sms/sandbox');

const exporter = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

(async () => {
  const sandbox = await startSandbox();
  try {
    const client = new HashScanClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, retry: false });
    assert.equal((await client.scan(EICAR_RECORD.sha256)).verdict, 'malicious');
    assert.deepEqual(
      exporter.getFinishedSpans().map((span) => span.name),
      ['GET', 'HashScanClient.scan'],
    );
  } finally {
    await sandbox.close();
  }
  console.log(`otel smoke (require) ok: node ${process.version}`);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
