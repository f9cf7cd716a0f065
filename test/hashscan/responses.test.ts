import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { HashScanError, type HashScanErrorCode } from '../../src/errors/hashscan-error.js';
import {
  API_KEY,
  HIT,
  json,
  MD5,
  makeClient,
  NOT_DETECTED,
  SHA1,
  SHA256,
  serveLookup,
} from '../helpers/hash-lookup.js';
import { useMswServer } from '../helpers/msw.js';

const server = useMswServer();

/** Scans once and returns the error; fails the test if the scan resolved. */
async function scanError(hash = SHA256, options = {}): Promise<HashScanError> {
  const outcome = await makeClient({ retry: false, ...options })
    .scan(hash)
    .then(
      (result) => result,
      (error: unknown) => error,
    );
  expect(outcome).toBeInstanceOf(HashScanError);
  return outcome as HashScanError;
}

describe('normal responses', () => {
  it('resolves not_detected only for the exact documented body, and sends only the hash and key', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const result = await makeClient().scan(SHA256.toUpperCase());
    expect(result).toEqual({
      verdict: 'not_detected',
      hash: SHA256,
      algorithm: 'sha256',
      message: NOT_DETECTED.message,
      raw: NOT_DETECTED,
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.hash).toBe(SHA256);
    expect(requests[0]?.apiKey).toBe(API_KEY);
    expect(new URL(requests[0]?.url ?? '').pathname).toBe('/hash_scan');
  });

  it('resolves malicious with source, data and no anomalies for a textbook hit', async () => {
    serveLookup(server, () => json(HIT));
    const result = await makeClient().scan(MD5);
    expect(result).toMatchObject({
      verdict: 'malicious',
      hash: MD5,
      algorithm: 'md5',
      source: 'engine-x',
      anomalies: [],
    });
    expect(result.verdict === 'malicious' && result.data).toEqual(HIT.data);
    // Times are kept as given: the service states no time zone.
    expect(result.verdict === 'malicious' && result.data?.first_seen).toBe('2024-01-02 03:04:05');
  });

  it.each([
    ['source missing', { ...HIT, source: undefined }, ['source:']],
    ['data missing', { ...HIT, data: undefined }, ['data: expected an object']],
    [
      'data malformed',
      { ...HIT, data: { ...HIT.data, md5: 'xyz', first_seen: '2024-01-02T03:04:05Z' } },
      ['data.md5', 'data.first_seen'],
    ],
    ['extra error field', { ...HIT, error: 'quota' }, ['unexpected field error']],
    ['data for another file', { ...HIT, data: { ...HIT.data, sha1: 'f'.repeat(40) } }, ['data.sha1: does not match']],
  ])('a hit stays malicious when %s, listing the anomalies', async (_name, body, expected) => {
    serveLookup(server, () => json(body));
    const result = await makeClient().scan(SHA1);
    expect(result.verdict).toBe('malicious');
    const anomalies = result.verdict === 'malicious' ? result.anomalies.join('\n') : '';
    for (const text of expected) expect(anomalies).toContain(text);
  });

  it('accepts an allow-listed extra field next to a non-detection', async () => {
    serveLookup(server, () => json({ ...NOT_DETECTED, engine_count: 70 }));
    await expect(makeClient({ allowedExtraFields: ['engine_count'] }).scan(SHA256)).resolves.toMatchObject({
      verdict: 'not_detected',
    });
    await expect(makeClient().scan(SHA256)).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
  });
});

describe('abnormal responses (spec part 7) never become not_detected', () => {
  const cases: [string, () => Response, HashScanErrorCode][] = [
    ['HTTP 500 with a non-detection body', () => json(NOT_DETECTED, 500), 'HTTP_STATUS'],
    ['HTTP 404', () => json({ error: 'not found' }, 404), 'HTTP_STATUS'],
    ['HTTP 401', () => new HttpResponse('unauthorized', { status: 401 }), 'HTTP_STATUS'],
    [
      'HTTP 302 redirect',
      () => new HttpResponse(null, { status: 302, headers: { location: 'http://evil.test/' } }),
      'HTTP_STATUS',
    ],
    ['HTTP 204 no content', () => new HttpResponse(null, { status: 204 }), 'INVALID_JSON'],
    ['an HTML body', () => new HttpResponse('<html>ok</html>', { status: 200 }), 'INVALID_JSON'],
    ['a truncated JSON body', () => new HttpResponse('{"status":"success","is_vi', { status: 200 }), 'INVALID_JSON'],
    ['a JSON array', () => json([NOT_DETECTED]), 'INVALID_RESPONSE'],
    ['JSON null', () => json(null), 'INVALID_RESPONSE'],
    ['a JSON string', () => json('success'), 'INVALID_RESPONSE'],
    ['status "error"', () => json({ ...NOT_DETECTED, status: 'error' }), 'STATUS_NOT_SUCCESS'],
    ['status "SUCCESS"', () => json({ ...NOT_DETECTED, status: 'SUCCESS' }), 'STATUS_NOT_SUCCESS'],
    ['status missing', () => json({ is_virus: false, message: 'x' }), 'INVALID_RESPONSE'],
    ['status not a string', () => json({ ...NOT_DETECTED, status: true }), 'INVALID_RESPONSE'],
    ['is_virus missing', () => json({ status: 'success', message: 'x' }), 'INVALID_RESPONSE'],
    ['is_virus "false"', () => json({ ...NOT_DETECTED, is_virus: 'false' }), 'INVALID_RESPONSE'],
    ['is_virus 0', () => json({ ...NOT_DETECTED, is_virus: 0 }), 'INVALID_RESPONSE'],
    ['is_virus null', () => json({ ...NOT_DETECTED, is_virus: null }), 'INVALID_RESPONSE'],
    ['message missing', () => json({ status: 'success', is_virus: false }), 'INVALID_RESPONSE'],
    ['message not a string', () => json({ ...NOT_DETECTED, message: 42 }), 'INVALID_RESPONSE'],
    ['an unknown extra field', () => json({ ...NOT_DETECTED, extra: 1 }), 'INVALID_RESPONSE'],
    ['an error field', () => json({ ...NOT_DETECTED, error: 'rate limited' }), 'INVALID_RESPONSE'],
    ['error code fields', () => json({ ...NOT_DETECTED, error_code: 5, error_msg: 'bad key' }), 'INVALID_RESPONSE'],
    ['data on a non-detection', () => json({ ...NOT_DETECTED, data: HIT.data }), 'INVALID_RESPONSE'],
    ['source on a non-detection', () => json({ ...NOT_DETECTED, source: 'engine-x' }), 'INVALID_RESPONSE'],
    ['a network error', () => HttpResponse.error(), 'NETWORK'],
  ];

  it.each(cases)('%s → %s', async (_name, respond, code) => {
    const requests = serveLookup(server, () => respond());
    const error = await scanError();
    expect(error.code).toBe(code);
    expect(error.hash).toBe(SHA256);
    expect(error.attempts).toBe(1);
    expect(requests).toHaveLength(1);
  });

  it('carries the HTTP status, a redacted body excerpt and the issues', async () => {
    serveLookup(server, () => json({ ...NOT_DETECTED, echoed: `key=${API_KEY}` }, 503));
    const error = await scanError();
    expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 503 });
    expect(error.body).toContain('echoed');
    expect(error.body).not.toContain(API_KEY);

    serveLookup(server, () => json({ ...NOT_DETECTED, is_virus: 'no' }));
    expect((await scanError()).issues).toEqual(['is_virus: expected boolean']);
  });

  it('a non-2xx response is abnormal even when its body reports a hit', async () => {
    serveLookup(server, () => json(HIT, 500));
    expect((await scanError()).code).toBe('HTTP_STATUS');
  });
});
