import { afterEach, describe, expect, it } from 'vitest';
import {
  EICAR_RECORD,
  SANDBOX_API_KEY,
  SANDBOX_FAULT_HASHES,
  SANDBOX_HASH_RECORDS,
  SANDBOX_NOT_DETECTED_HASH,
} from '../../src/doubles/defaults.js';
import type { HashScanFaultKind } from '../../src/doubles/hash-faults.js';
import { recordFor } from '../../src/doubles/records.js';
import { HashScanError } from '../../src/errors/hashscan-error.js';
import { HashScanClient, type HashScanClientOptions } from '../../src/hashscan/hashscan-client.js';
import { ADAPTERS, type Harness, type HarnessOptions, startHarness } from './harness.js';

const EICAR_HIT = {
  status: 'success',
  is_virus: true,
  source: 'eicar',
  data: {
    sha256: EICAR_RECORD.sha256,
    md5: EICAR_RECORD.md5,
    sha1: EICAR_RECORD.sha1,
    first_seen: EICAR_RECORD.firstSeen,
    last_seen: EICAR_RECORD.lastSeen,
  },
};

/** Which client error each fault must produce (on a hash that is not flagged). */
const FAULT_CODES: ReadonlyArray<readonly [HashScanFaultKind, string]> = [
  ['http-status', 'HTTP_STATUS'],
  ['timeout', 'TIMEOUT'],
  ['malformed-json', 'INVALID_JSON'],
  ['status-not-success', 'STATUS_NOT_SUCCESS'],
  ['is-virus-string', 'INVALID_RESPONSE'],
  ['extra-fields', 'INVALID_RESPONSE'],
  ['connection-error', 'NETWORK'],
  ['partial-body', 'NETWORK'],
];

describe.each(ADAPTERS)('hash lookup double (%s)', (adapter) => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  async function client(options: HarnessOptions = {}, clientOptions: Partial<HashScanClientOptions> = {}) {
    harness = await startHarness(adapter, options);
    return new HashScanClient({
      baseUrl: harness.hashScanUrl,
      apiKey: options.hashScan?.apiKey ?? SANDBOX_API_KEY,
      retry: false,
      cache: false,
      // Generous: only the time-out faults wait for it, and they set their own.
      timeoutMs: 10_000,
      ...clientOptions,
    });
  }

  it.each(['md5', 'sha1', 'sha256'] as const)('a lookup by %s hits with all three digests', async (algorithm) => {
    const scanner = await client();
    const result = await scanner.scan(EICAR_RECORD[algorithm].toUpperCase());
    expect(result).toMatchObject({ verdict: 'malicious', algorithm, source: 'eicar', anomalies: [] });
    expect(result.raw).toEqual(EICAR_HIT);
    expect(harness?.requests).toHaveLength(1);
  });

  it('answers the documented non-detection body for an unknown hash', async () => {
    const scanner = await client();
    const result = await scanner.scan(SANDBOX_NOT_DETECTED_HASH);
    expect(result.verdict).toBe('not_detected');
    expect(Object.keys(result.raw).sort()).toEqual(['is_virus', 'message', 'status']);
    expect(harness?.requests.map((request) => request.outcome)).toEqual(['not_detected']);
  });

  it('serves records built from file content', async () => {
    const record = recordFor(Buffer.from('pretend malware'), { source: 'test-av', firstSeen: new Date(0) });
    const scanner = await client({ hashScan: { records: [record] } });
    await expect(scanner.scan(record.sha1)).resolves.toMatchObject({
      verdict: 'malicious',
      source: 'test-av',
      data: { md5: record.md5, first_seen: '1970-01-01 00:00:00', last_seen: '1970-01-01 00:00:00' },
    });
    // A configured table replaces the default one.
    await expect(scanner.scan(EICAR_RECORD.sha256)).resolves.toMatchObject({ verdict: 'not_detected' });
  });

  it('answers a wrong api_key with HTTP 401, which the client reports as HTTP_STATUS', async () => {
    const scanner = await client({ hashScan: { apiKey: 'right-key' } }, { apiKey: 'wrong-key' });
    const error = await scanner.scan(EICAR_RECORD.sha256).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HashScanError);
    expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 401 });
    expect(harness?.requests.map((request) => [request.status, request.outcome])).toEqual([[401, 'unauthorized']]);
  });

  it.each(FAULT_CODES)('fault %s makes the client fail with %s', async (kind, code) => {
    // Only the time-out fault waits for the time-out: it never answers, so a short one cannot race it.
    // Every other fault answers (or cuts) at once and gets a generous time-out, so that a loaded
    // machine can never turn its answer into a TIMEOUT.
    const scanner = await client({}, { timeoutMs: kind === 'timeout' ? 100 : 10_000 });
    await expect(scanner.scan(SANDBOX_FAULT_HASHES[kind])).rejects.toMatchObject({ code });
    expect(harness?.requests.map((request) => request.outcome)).toEqual([`fault:${kind}`]);
  });

  it('applies a fault keyed in any letter case, and a hit stays a hit despite extra fields', async () => {
    const scanner = await client({
      hashScan: {
        faults: {
          [EICAR_RECORD.md5.toUpperCase()]: { kind: 'extra-fields', fields: { error: 'degraded' } },
          [EICAR_RECORD.sha1]: { kind: 'http-status', status: 429, retryAfterSeconds: 2 },
        },
      },
    });
    await expect(scanner.scan(EICAR_RECORD.md5)).resolves.toMatchObject({
      verdict: 'malicious',
      anomalies: ['unexpected field error'],
    });
    await expect(scanner.scan(EICAR_RECORD.sha1)).rejects.toMatchObject({
      code: 'HTTP_STATUS',
      status: 429,
      retryAfterMs: 2000,
    });
    // The fault is keyed by one digest only.
    await expect(scanner.scan(EICAR_RECORD.sha256)).resolves.toMatchObject({ verdict: 'malicious', anomalies: [] });
  });

  it('answers a delayed time-out fault late but in full', async () => {
    const scanner = await client({
      hashScan: { faults: { [SANDBOX_NOT_DETECTED_HASH]: { kind: 'timeout', delayMs: 20 } } },
    });
    await expect(scanner.scan(SANDBOX_NOT_DETECTED_HASH)).resolves.toMatchObject({ verdict: 'not_detected' });
  });

  it('retries a server error the client deems transient, one request per attempt', async () => {
    const scanner = await client({}, { retry: { retries: 2, minDelayMs: 1, maxDelayMs: 2 } });
    await expect(scanner.scan(SANDBOX_FAULT_HASHES['http-status'])).rejects.toMatchObject({
      code: 'HTTP_STATUS',
      attempts: 3,
    });
    expect(harness?.requests).toHaveLength(3);
  });

  it('never records the api key', async () => {
    const apiKey = 'super-secret-api-key';
    const scanner = await client({ hashScan: { apiKey } });
    await scanner.scan(SANDBOX_HASH_RECORDS[1]?.sha256 ?? '');
    // A short time-out only for the lookup that never answers.
    const stalled = new HashScanClient({ baseUrl: harness?.hashScanUrl ?? '', apiKey, retry: false, timeoutMs: 50 });
    await stalled.scan(SANDBOX_FAULT_HASHES.timeout).catch(() => {});
    const log = JSON.stringify(harness?.requests);
    expect(log).not.toContain(apiKey);
    expect(harness?.requests[0]?.params).toEqual({ api_key: '***', hash: SANDBOX_HASH_RECORDS[1]?.sha256 });
  });

  it('answers a malformed hash with HTTP 400', async () => {
    harness = await startHarness(adapter);
    const response = await fetch(`${harness.hashScanUrl}/hash_scan?api_key=${SANDBOX_API_KEY}&hash=sha256:abc`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ status: 'error', message: expect.any(String) });
  });
});
