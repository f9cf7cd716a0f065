'use strict';
// CommonJS consumer smoke test: run by .ci/run against the installed tarball, on each Node of the matrix.
const assert = require('node:assert/strict');
const {
  ConfigurationError,
  decide,
  HashScanClient,
  HashScanError,
  HashScanSmsError,
  SmsClient,
  SmsError,
  TruncatedStreamError,
  VERSION,
} = require('hashscan-sms');
const { Readable } = require('node:stream');
// SMOKE_ROOT_ONLY=1: the root entry alone, against the local stub (see .ci/run, smoke_on).
const { startBackend } = require(process.env.SMOKE_ROOT_ONLY === '1' ? './backend-stub.cjs' : './backend.cjs');

async function main() {
  // The CJS build answers `require()` (ky is bundled into it: it is ESM only).
  assert.match(require.resolve('hashscan-sms'), /[\\/]node_modules[\\/]hashscan-sms[\\/]dist[\\/]index\.cjs$/);
  assert.equal(VERSION, require('hashscan-sms/package.json').version);

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

    // Errors thrown through `hashscan-sms/testing` are the root entry's classes (one shared copy).
    if (backend.testingEntryError) {
      const fromTesting = backend.testingEntryError();
      assert.ok(
        fromTesting instanceof ConfigurationError,
        'hashscan-sms/testing must throw the root ConfigurationError',
      );
    }
  } finally {
    await backend.close();
  }
  // Dual-package hazard: the ESM build loaded beside this CommonJS one (import() works in every mode).
  const esm = await import('hashscan-sms');
  assert.notEqual(esm.HashScanError, HashScanError, 'two builds must be loaded for this check to mean anything');
  const lookup = { baseUrl: 'https://hashscan.example.com', apiKey: 'key' };
  const fromEsm = await new esm.HashScanClient(lookup).scan('not-a-hash').catch((error) => error);
  assert.ok(fromEsm instanceof HashScanError && fromEsm instanceof HashScanSmsError && !(fromEsm instanceof SmsError));
  const fromCjs = await new HashScanClient(lookup).scan('not-a-hash').catch((error) => error);
  assert.ok(fromCjs instanceof esm.HashScanError && !(fromCjs instanceof esm.SmsError));
  const smsOptions = { baseUrl: 'https://sms.example.com', accessKeyId: 'id', accessKeySecret: 'secret' };
  const badSend = { phoneNumbers: '', templateCode: 'SMS_1', templateParam: {} };
  const smsFromEsm = await new esm.SmsClient(smsOptions).send(badSend).catch((error) => error);
  assert.ok(smsFromEsm instanceof SmsError && smsFromEsm instanceof HashScanSmsError);
  assert.throws(() => new esm.SmsClient({ ...smsOptions, baseUrl: 'http://sms.example.com' }), ConfigurationError);
  // The `hashscan-sms/hashing` CJS entry carries its own copy of the classes: still the same brand.
  const hashing = require('hashscan-sms/hashing');
  const cut = Object.assign(Readable.from([Buffer.from('abc')]), { truncated: true });
  const truncated = await hashing.hashStream(cut).catch((error) => error);
  assert.ok(truncated instanceof TruncatedStreamError && truncated instanceof esm.TruncatedStreamError);
  // `hashscan-sms/signing`: the functions the root keeps as deprecated aliases, the same objects in CommonJS too.
  const signing = require('hashscan-sms/signing');
  const root = require('hashscan-sms');
  assert.equal(root.computeSignature, signing.computeSignature);
  assert.equal(root.verifySignature, signing.verifySignature);
  assert.equal(root.SigningError, signing.SigningError);
  assert.equal(root.hashFiles, hashing.hashFiles);

  // `hashscan-sms/fleet` in CommonJS: the plugin, and the root's deprecated `{ redis }` form, describe one fleet.
  const { redisFleet } = require('hashscan-sms/fleet');
  assert.match(require.resolve('hashscan-sms/fleet'), /[\\/]dist[\\/]fleet\.cjs$/);
  const stubRedis = { sendCommand: async () => null, isReady: true, options: { disableOfflineQueue: true } };
  const onPlugin = new SmsClient({
    accessKeyId: 'id',
    accessKeySecret: 's',
    baseUrl: 'https://s.test',
    fleet: redisFleet({ redis: stubRedis }),
  });
  const onLegacy = new SmsClient({
    accessKeyId: 'id',
    accessKeySecret: 's',
    baseUrl: 'https://s.test',
    fleet: { redis: stubRedis },
  });
  assert.deepEqual(onPlugin.toJSON().fleet, { redis: 'node-redis', prefix: 'hashscan-sms', timeoutMs: 50 });
  assert.deepEqual(onLegacy.toJSON().fleet, onPlugin.toJSON().fleet);

  const flags = process.execArgv.length > 0 ? ` ${process.execArgv.join(' ')}` : '';
  console.log(`cjs smoke ok: node ${process.version}${flags}, ${backend.kind}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
