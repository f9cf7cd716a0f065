import { inspect } from 'node:util';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { HashScanClient } from '../../../src/hashscan/hashscan-client.js';
import { objectFirstLogger } from '../../../src/observe/logger.js';
import { SmsClient } from '../../../src/sms/sms-client.js';

const API_KEY = 'SECRET-api-key/+&=42';
const ACCESS_KEY_ID = 'LTAIsecretkeyid0042';
const ACCESS_KEY_SECRET = 'SECRET-access-key-secret/+=';

/** Every form a secret could take in a dump: raw, URL-encoded, form-encoded. */
function expectNoSecret(text: string, secrets: readonly string[]): void {
  for (const secret of secrets) {
    for (const form of [secret, encodeURIComponent(secret), new URLSearchParams({ k: secret }).toString().slice(2)]) {
      expect(text).not.toContain(form);
    }
  }
}

const dumps = (client: object): string[] => [
  JSON.stringify(client),
  inspect(client),
  inspect(client, { depth: 10, showHidden: true }),
  String(client),
];

describe('toJSON() and util.inspect show the effective settings, never a secret', () => {
  it('HashScanClient: defaults applied', () => {
    const client = new HashScanClient({ apiKey: API_KEY, baseUrl: 'https://hashscan.example.com/v1/' });
    expect(client.toJSON()).toEqual({
      baseUrl: 'https://hashscan.example.com/v1',
      sourceId: 'https://hashscan.example.com/v1',
      timeoutMs: 10_000,
      maxResponseBytes: 1_048_576,
      retry: { retries: 2, minDelayMs: 500, maxDelayMs: 8000 },
      sendsWith: 'fetch',
      logger: 'silent',
      allowedExtraFields: [],
      cache: { max: 10_000, ttlMs: 300_000, notDetectedTtlMs: 60_000, size: 0 },
    });
    expect(inspect(client)).toMatch(/^HashScanClient \{/);
    expect(inspect(client)).toContain('timeoutMs: 10000');
    expect(inspect(client)).toContain('max: 10000');
    for (const dump of dumps(client)) expectNoSecret(dump, [API_KEY]);
  });

  it('HashScanClient: given settings', async () => {
    const dispatcher = new Agent();
    try {
      const client = new HashScanClient({
        apiKey: API_KEY,
        baseUrl: 'https://hashscan.example.com',
        timeoutMs: 2500,
        totalTimeoutMs: 6000,
        maxResponseBytes: 4096,
        retry: false,
        cache: { max: 5, ttlMs: 1000, notDetectedTtlMs: 0 },
        dispatcher,
        allowedExtraFields: ['trace_id'],
        logger: objectFirstLogger({ debug() {}, info() {}, warn() {}, error() {} }),
      });
      expect(client.toJSON()).toMatchObject({
        timeoutMs: 2500,
        totalTimeoutMs: 6000,
        maxResponseBytes: 4096,
        retry: false,
        cache: { max: 5, ttlMs: 1000, notDetectedTtlMs: 0, size: 0 },
        sendsWith: 'dispatcher',
        logger: 'structured',
        allowedExtraFields: ['trace_id'],
      });
      expect(
        new HashScanClient({ apiKey: API_KEY, baseUrl: 'https://h.example', cache: false }).toJSON(),
      ).toMatchObject({
        cache: false,
      });
      for (const dump of dumps(client)) expectNoSecret(dump, [API_KEY]);
    } finally {
      await dispatcher.close();
    }
  });

  it('SmsClient: defaults and given settings, the key id masked', () => {
    const sms = new SmsClient({
      accessKeyId: ACCESS_KEY_ID,
      accessKeySecret: ACCESS_KEY_SECRET,
      baseUrl: 'https://sms.example.com',
      fetch: globalThis.fetch,
      logger: console,
      retry: { retries: 4, minDelayMs: 100 },
      totalTimeoutMs: 15_000,
    });
    expect(sms.toJSON()).toEqual({
      baseUrl: 'https://sms.example.com',
      method: 'POST',
      regionId: 'cn-hangzhou',
      version: '2017-05-25',
      defaultRegion: 'CN',
      accessKeyId: 'LTAI***',
      retryUnknownOutcome: false,
      clockOffsetMs: 0,
      timeoutMs: 10_000,
      totalTimeoutMs: 15_000,
      maxResponseBytes: 1_048_576,
      retry: { retries: 4, minDelayMs: 100, maxDelayMs: 8000 },
      sendsWith: 'custom fetch',
      logger: 'lines',
    });
    expect(inspect(sms)).toMatch(/^SmsClient \{/);
    for (const dump of dumps(sms)) expectNoSecret(dump, [ACCESS_KEY_SECRET, ACCESS_KEY_ID]);
  });
});
