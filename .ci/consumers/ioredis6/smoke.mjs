// A project on ioredis 6 (the README says 5 and 6 are tested): the peer range admits it, and a client's
// `fleet` runs on it. With REDIS_URL (set by .ci/run), the lookups go through the fleet on that Redis.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { HashScanClient } from 'hashscan-sms';
import { EICAR_RECORD, SANDBOX_NOT_DETECTED_HASH, startSandbox } from 'hashscan-sms/sandbox';
import { Redis } from 'ioredis';

const installed = JSON.parse(readFileSync(new URL('./node_modules/ioredis/package.json', import.meta.url), 'utf8'));
assert.equal(installed.version.split('.')[0], '6', `expected ioredis 6, found ${installed.version}`);

const url = process.env.REDIS_URL;
const redis = new Redis(url ?? 'redis://127.0.0.1:1', { enableOfflineQueue: false, lazyConnect: true });
redis.on('error', () => {});
if (url) await redis.connect();
const sandbox = await startSandbox();
try {
  const client = new HashScanClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    retry: false,
    fleet: { redis, prefix: `ioredis6-consumer-${process.pid}` },
  });
  assert.equal((await client.scan(EICAR_RECORD.sha256)).verdict, 'malicious');
  assert.equal((await client.scan(SANDBOX_NOT_DETECTED_HASH)).verdict, 'not_detected');
  console.log(
    `ioredis ${installed.version}: fleet client ok${url ? ` on ${url}` : ' (no REDIS_URL: Redis not reached)'}`,
  );
} finally {
  await sandbox.close();
  redis.disconnect();
}
