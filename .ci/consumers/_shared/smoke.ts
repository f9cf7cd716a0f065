// TypeScript consumer smoke test, compiled by both ts-node16/ and ts-bundler/ (each with its
// own tsconfig) against the installed tarball's types, then run on each Node of the matrix.
// A type error anywhere here, or in the package's .d.ts files (skipLibCheck is off), fails CI.
import assert from 'node:assert/strict';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ConfigurationError,
  type Decision,
  decide,
  HashScanClient,
  type HashScanClientOptions,
  HashScanError,
  type HashScanErrorCode,
  HashScanSmsError,
  type ScanOutcome,
  type ScanResult,
  type SendSmsRequest,
  type SendSmsResult,
  SmsClient,
  type SmsClientOptions,
  SmsError,
  type SmsOutcome,
  VERSION,
} from 'hashscan-sms';
import { startBackend } from './backend.js';

/**
 * Compile-time checks only, never called. Every `@ts-expect-error` must meet
 * an error, so public types that decay to `any` (or lose a required field)
 * fail the compile as surely as types that reject correct code.
 */
export function typeChecks(client: HashScanClient, sms: SmsClient, result: ScanResult, outcome: ScanOutcome): void {
  // @ts-expect-error `verdict` is a union of literals, not any string
  const wrongVerdict: 'clean' = result.verdict;
  // @ts-expect-error `scan` takes the hash as a string
  void client.scan(42);
  // @ts-expect-error `scan` resolves a ScanResult, not anything
  const wrongResult: Promise<number> = client.scan('d41d8cd98f00b204e9800998ecf8427e');
  // @ts-expect-error unknown options are refused
  const unknownOption: HashScanClientOptions = { baseUrl: 'https://hashscan.example.com', nope: true };
  // @ts-expect-error `templateCode` is required
  const missingTemplate: SendSmsRequest = { phoneNumbers: '13800000000', templateParam: {} };
  // @ts-expect-error a send resolves `code: 'OK'`, nothing else
  const wrongCode: Promise<{ code: 'FAILED' }> = sms.send({ phoneNumbers: '1', templateCode: 'T', templateParam: {} });
  // @ts-expect-error a decision is never a free string
  const wrongDecision: Decision = 'maybe';
  if (outcome.verdict === 'error') {
    // @ts-expect-error an error outcome carries a HashScanError, not a string
    const wrongError: string = outcome.error;
    void wrongError;
  }
  void [wrongVerdict, wrongResult, unknownOption, missingTemplate, wrongCode, wrongDecision];
}

const version: string = VERSION;
assert.match(version, /^\d+\.\d+\.\d+/);

assert.throws(
  () => new HashScanClient({ baseUrl: 'http://hashscan.example.com', apiKey: 'key' }),
  (error: unknown) =>
    error instanceof ConfigurationError && error instanceof HashScanSmsError && error.option === 'baseUrl',
);

const backend = await startBackend();
try {
  const options: HashScanClientOptions = { baseUrl: backend.hashScanUrl, apiKey: backend.apiKey, retry: false };
  const client = new HashScanClient(options);
  const hit: ScanResult = await client.scan(backend.maliciousHash);
  assert.equal(hit.verdict, 'malicious');
  if (hit.verdict === 'malicious') {
    const source: string | undefined = hit.source;
    const anomalies: readonly string[] = hit.anomalies;
    void [source, anomalies];
  }
  const decision: Decision = decide(hit);
  assert.equal(decision, 'block');
  const miss = await client.scan(backend.cleanHash);
  assert.equal(miss.verdict, 'not_detected');

  const before = backend.requestCount();
  await assert.rejects(
    async () => client.scan('sha256:not-a-hash'),
    (error: unknown) => {
      if (!(error instanceof HashScanError)) return false;
      const code: HashScanErrorCode = error.code;
      return error instanceof HashScanSmsError && code === 'INVALID_HASH';
    },
  );
  assert.equal(backend.requestCount(), before, 'an invalid hash must not reach the service');

  const smsOptions: SmsClientOptions = {
    baseUrl: backend.smsUrl,
    accessKeyId: backend.accessKeyId,
    accessKeySecret: backend.accessKeySecret,
    retry: false,
  };
  const sms = new SmsClient(smsOptions);
  const request: SendSmsRequest = {
    phoneNumbers: ['13800000000'],
    templateCode: backend.templateCode,
    templateParam: backend.templateParam,
  };
  const sent: SendSmsResult = await sms.send(request);
  assert.equal(sent.code, 'OK');
  await assert.rejects(
    async () => sms.send({ ...request, phoneNumbers: '' }),
    (error: unknown) => {
      if (!(error instanceof SmsError)) return false;
      const outcome: SmsOutcome = error.outcome;
      return error.code === 'InvalidParameter' && outcome === 'not_sent';
    },
  );

  // Errors thrown through `hashscan-sms/testing` are the root entry's classes (one shared copy).
  if (backend.testingEntryError) {
    const fromTesting = backend.testingEntryError();
    assert.ok(fromTesting instanceof ConfigurationError, 'hashscan-sms/testing must throw the root ConfigurationError');
  }
} finally {
  await backend.close();
}

const project = basename(dirname(fileURLToPath(import.meta.url)));
console.log(`typescript smoke ok (${project}): node ${process.version}, ${backend.kind}`);
