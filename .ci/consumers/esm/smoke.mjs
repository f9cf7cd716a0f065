// ESM consumer smoke test: run by .ci/run against the installed tarball, on each Node of the matrix.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  ConfigurationError,
  decide,
  HashScanClient,
  HashScanError,
  HashScanSmsError,
  SmsClient,
  SmsError,
  TruncatedStreamError,
  VERSION,
} from 'hashscan-sms';
import { hashFiles, hashStream } from 'hashscan-sms/hashing';
import { startBackend } from './backend.mjs';

// The ESM build, not the CJS one, answers `import`.
const entry = fileURLToPath(import.meta.resolve('hashscan-sms'));
assert.match(entry, /[\\/]node_modules[\\/]hashscan-sms[\\/]dist[\\/]index\.js$/);
const manifest = JSON.parse(readFileSync(fileURLToPath(import.meta.resolve('hashscan-sms/package.json')), 'utf8'));
assert.equal(VERSION, manifest.version, 'VERSION must equal the packed package.json version');

// A plain-HTTP base URL that is not loopback is refused at construction.
assert.throws(
  () => new HashScanClient({ baseUrl: 'http://hashscan.example.com', apiKey: 'key' }),
  (error) => error instanceof ConfigurationError && error instanceof HashScanSmsError && error.option === 'baseUrl',
);

const backend = await startBackend();
try {
  const client = new HashScanClient({ baseUrl: backend.hashScanUrl, apiKey: backend.apiKey, retry: false });
  const hit = await client.scan(backend.maliciousHash);
  assert.equal(hit.verdict, 'malicious');
  assert.equal(decide(hit), 'block');
  const miss = await client.scan(backend.cleanHash);
  assert.equal(miss.verdict, 'not_detected');

  // An invalid hash rejects with the exported error class, before any request.
  const before = backend.requestCount();
  await assert.rejects(
    async () => client.scan('sha256:not-a-hash'),
    (error) => error instanceof HashScanError && error instanceof HashScanSmsError && error.code === 'INVALID_HASH',
  );
  assert.equal(backend.requestCount(), before, 'an invalid hash must not reach the service');

  const sms = new SmsClient({
    baseUrl: backend.smsUrl,
    accessKeyId: backend.accessKeyId,
    accessKeySecret: backend.accessKeySecret,
    retry: false,
  });
  const sent = await sms.send({
    phoneNumbers: '13800000000',
    templateCode: backend.templateCode,
    templateParam: backend.templateParam,
  });
  assert.equal(sent.code, 'OK');
  assert.equal(typeof sent.requestId, 'string');
  await assert.rejects(
    async () => sms.send({ phoneNumbers: '', templateCode: backend.templateCode, templateParam: {} }),
    (error) => error instanceof SmsError && error.code === 'InvalidParameter' && error.outcome === 'not_sent',
  );
  assert.ok(!JSON.stringify(sms).includes(backend.accessKeySecret), 'the secret must not show in toJSON()');

  // Errors thrown through `hashscan-sms/testing` are the root entry's classes (one shared copy).
  if (backend.testingEntryError) {
    const fromTesting = backend.testingEntryError();
    assert.ok(fromTesting instanceof ConfigurationError, 'hashscan-sms/testing must throw the root ConfigurationError');
  }
} finally {
  await backend.close();
}

// Dual-package hazard: the CommonJS build loaded beside the ESM one (a CommonJS dependency that
// requires the package). Its errors must be instances of the ESM classes, and the other way round.
const cjs = createRequire(import.meta.url)('hashscan-sms');
assert.notEqual(cjs.HashScanError, HashScanError, 'two builds must be loaded for this check to mean anything');
const lookup = { baseUrl: 'https://hashscan.example.com', apiKey: 'key' };
const fromCjs = await new cjs.HashScanClient(lookup).scan('not-a-hash').catch((error) => error);
assert.ok(fromCjs instanceof HashScanError, 'a HashScanError of the CJS build must be instanceof the ESM class');
assert.ok(fromCjs instanceof HashScanSmsError && fromCjs instanceof Error && !(fromCjs instanceof SmsError));
const fromEsm = await new HashScanClient(lookup).scan('not-a-hash').catch((error) => error);
assert.ok(
  fromEsm instanceof cjs.HashScanError && fromEsm instanceof cjs.HashScanSmsError && !(fromEsm instanceof cjs.SmsError),
);
const smsOptions = { baseUrl: 'https://sms.example.com', accessKeyId: 'id', accessKeySecret: 'secret' };
const badSend = { phoneNumbers: '', templateCode: 'SMS_1', templateParam: {} };
const smsFromCjs = await new cjs.SmsClient(smsOptions).send(badSend).catch((error) => error);
assert.ok(smsFromCjs instanceof SmsError && !(smsFromCjs instanceof HashScanError));
const smsFromEsm = await new SmsClient(smsOptions).send(badSend).catch((error) => error);
assert.ok(smsFromEsm instanceof cjs.SmsError && smsFromEsm instanceof cjs.HashScanSmsError);
assert.throws(
  () => new cjs.HashScanClient({ baseUrl: 'http://hashscan.example.com', apiKey: 'k' }),
  ConfigurationError,
);
const cut = Object.assign(Readable.from([Buffer.from('abc')]), { truncated: true });
const truncated = await hashStream(cut).catch((error) => error);
assert.ok(truncated instanceof TruncatedStreamError && truncated instanceof cjs.TruncatedStreamError);

// The names that moved to `hashscan-sms/signing` and `/hashing` are still in the root, as the very same objects.
const root = await import('hashscan-sms');
const signing = await import('hashscan-sms/signing');
for (const name of ['canonicalQuery', 'computeSignature', 'explainSignature', 'percentEncode', 'stringToSign']) {
  assert.equal(typeof signing[name], 'function', name);
  assert.equal(root[name], signing[name], name);
}
assert.equal(root.verifySignature, signing.verifySignature);
assert.equal(root.maskedStringToSign, signing.maskedStringToSign);
assert.equal(root.SigningError, signing.SigningError);
assert.equal(root.hashFiles, hashFiles);

// `hashscan-sms/fleet`: the plugin the clients take as `fleet`; the root still takes the deprecated `{ redis }` form,
// the same fleet; and a plugin of the CJS build serves a client of the ESM build (its parts ride on a registered symbol).
const { redisFleet } = await import('hashscan-sms/fleet');
assert.match(fileURLToPath(import.meta.resolve('hashscan-sms/fleet')), /[\\/]dist[\\/]fleet\.js$/);
const stubRedis = { sendCommand: async () => null, isReady: true, options: { disableOfflineQueue: true } };
const fleetSettings = { redis: stubRedis, prefix: 'smoke', lookupWaitMs: 0 };
const onPlugin = new HashScanClient({ apiKey: 'k', baseUrl: 'https://h.test', fleet: redisFleet(fleetSettings) });
const onLegacy = new HashScanClient({ apiKey: 'k', baseUrl: 'https://h.test', fleet: fleetSettings });
const onCjsPlugin = new HashScanClient({
  apiKey: 'k',
  baseUrl: 'https://h.test',
  fleet: createRequire(import.meta.url)('hashscan-sms/fleet').redisFleet(fleetSettings),
});
assert.deepEqual(onPlugin.toJSON().fleet, { redis: 'node-redis', prefix: 'smoke', timeoutMs: 50, lookupWaitMs: 0 });
assert.deepEqual(onLegacy.toJSON().fleet, onPlugin.toJSON().fleet);
assert.deepEqual(onCjsPlugin.toJSON().fleet, onPlugin.toJSON().fleet);

// Class names survive the bundler in both builds (not `_HashScanError`): logs and error trackers group on them.
for (const [error, name] of [
  [fromCjs, 'HashScanError'],
  [fromEsm, 'HashScanError'],
  [smsFromCjs, 'SmsError'],
  [smsFromEsm, 'SmsError'],
  [truncated, 'TruncatedStreamError'],
  [new ConfigurationError('baseUrl', 'missing'), 'ConfigurationError'],
  [new cjs.ConfigurationError('baseUrl', 'missing'), 'ConfigurationError'],
]) {
  assert.equal(error.name, name);
  assert.equal(error.constructor.name, name);
  assert.ok(String(error).startsWith(`${name}: `), String(error));
}
assert.equal(HashScanSmsError.name, 'HashScanSmsError');
assert.equal(cjs.HashScanSmsError.name, 'HashScanSmsError');

console.log(`esm smoke ok: node ${process.version}, ${backend.kind}`);
