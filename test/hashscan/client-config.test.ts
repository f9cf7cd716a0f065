import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { HashScanError } from '../../src/errors/hashscan-error.js';
import { hashFile } from '../../src/hashing/hash-file.js';
import { decide } from '../../src/hashscan/decide.js';
import { HashScanClient, type HashScanClientOptions } from '../../src/hashscan/hashscan-client.js';
import { API_KEY, BASE_URL, json, NOT_DETECTED, SHA256, serveLookup } from '../helpers/hash-lookup.js';
import { useMswServer } from '../helpers/msw.js';
import { useTempDir } from '../helpers/temp-dir.js';

const server = useMswServer();
const tempDir = useTempDir();

afterEach(() => {
  vi.unstubAllEnvs();
});

function configError(options: HashScanClientOptions): ConfigurationError {
  try {
    new HashScanClient(options);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error('expected a ConfigurationError');
}

describe('configuration', () => {
  it('reads the key and base URL from the environment', async () => {
    vi.stubEnv('HASHSCAN_API_KEY', 'env-key');
    vi.stubEnv('HASHSCAN_BASE_URL', `${BASE_URL}/`);
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const client = new HashScanClient();
    expect(client.baseUrl).toBe(BASE_URL);
    await client.scan(SHA256);
    expect(requests[0]?.apiKey).toBe('env-key');
  });

  it('keeps a path prefix of the base URL', async () => {
    const requests: string[] = [];
    const { http } = await import('msw');
    server.use(
      http.get(`${BASE_URL}/v2/hash_scan`, ({ request }) => {
        requests.push(request.url);
        return json(NOT_DETECTED);
      }),
    );
    await new HashScanClient({ apiKey: API_KEY, baseUrl: `${BASE_URL}/v2/` }).scan(SHA256);
    expect(requests).toHaveLength(1);
  });

  it.each([
    ['a missing key', { baseUrl: BASE_URL }, 'apiKey', /HASHSCAN_API_KEY/],
    ['an empty key', { apiKey: '', baseUrl: BASE_URL }, 'apiKey', /required/],
    ['a missing base URL', { apiKey: API_KEY }, 'baseUrl', /HASHSCAN_BASE_URL/],
    ['plain http to a remote host', { apiKey: API_KEY, baseUrl: 'http://hashscan.test' }, 'baseUrl', /https/],
    ['ftp', { apiKey: API_KEY, baseUrl: 'ftp://hashscan.test' }, 'baseUrl', /https/],
    ['a relative URL', { apiKey: API_KEY, baseUrl: '/hash' }, 'baseUrl', /valid/],
    ['credentials in the URL', { apiKey: API_KEY, baseUrl: 'https://u:p@hashscan.test' }, 'baseUrl', /credentials/],
    ['a query in the URL', { apiKey: API_KEY, baseUrl: 'https://hashscan.test/?a=1' }, 'baseUrl', /query/],
    ['a zero time-out', { apiKey: API_KEY, baseUrl: BASE_URL, timeoutMs: 0 }, 'timeoutMs', /between/],
    ['negative retries', { apiKey: API_KEY, baseUrl: BASE_URL, retry: { retries: -1 } }, 'retry.retries', /whole/],
    [
      'maxDelay < minDelay',
      { apiKey: API_KEY, baseUrl: BASE_URL, retry: { minDelayMs: 9, maxDelayMs: 1 } },
      'retry.maxDelayMs',
      />=/,
    ],
    ['a zero cache size', { apiKey: API_KEY, baseUrl: BASE_URL, cache: { max: 0 } }, 'cache.max', />= 1/],
    ['an empty source id', { apiKey: API_KEY, baseUrl: BASE_URL, sourceId: '' }, 'sourceId', /non-empty/],
  ] as const)('refuses %s at construction', (_name, options, option, message) => {
    const error = configError(options as HashScanClientOptions);
    expect(error.code).toBe('CONFIGURATION');
    expect(error.option).toBe(option);
    expect(error.message).toMatch(message);
  });

  it.each(['http://localhost:8080', 'http://127.0.0.1', 'http://127.1.2.3:9', 'http://[::1]:3000', 'https://x.test'])(
    'accepts %s',
    (baseUrl) => {
      expect(new HashScanClient({ apiKey: API_KEY, baseUrl }).baseUrl).toBe(baseUrl.replace(/\/$/, ''));
    },
  );
});

describe('decide', () => {
  const error = {
    verdict: 'error',
    hash: SHA256,
    error: new HashScanError({ code: 'TIMEOUT', message: 't' }),
  } as const;
  it('blocks hits, allows non-detections and reviews errors by default', () => {
    expect(decide({ verdict: 'malicious' })).toBe('block');
    expect(decide({ verdict: 'not_detected' })).toBe('allow');
    expect(decide(error)).toBe('review');
  });
  it('blocks errors when the policy says so, and never allows them', () => {
    expect(decide(error, { onError: 'block' })).toBe('block');
    expect(decide(error, { onError: 'review' })).toBe('review');
  });
});

describe('hashFile', () => {
  it('streams a file into md5, sha1 and sha256 (the default)', async () => {
    const path = join(tempDir, 'eicar.txt');
    await writeFile(path, 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*');
    expect(await hashFile(path)).toBe('275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f');
    expect(await hashFile(path, 'md5')).toBe('44d88612fea8a8f36de82e1278abb02f');
    expect(await hashFile(path, 'sha1')).toBe('3395856ce81f2b7382dee72602f798b642f14140');
  });
  it('rejects a missing file and an unknown algorithm', async () => {
    await expect(hashFile('/nonexistent/file')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(hashFile(__filename, 'sha512' as 'sha256')).rejects.toThrow(/algorithm/);
  });
});
