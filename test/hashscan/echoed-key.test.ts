import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { HashScanClient } from '../../src/hashscan/hashscan-client.js';
import { BASE_URL, HIT, NOT_DETECTED, SHA256, serveLookup } from '../helpers/hash-lookup.js';
import { JSON_WRITERS, views } from '../helpers/json-writers.js';
import { useMswServer } from '../helpers/msw.js';

const server = useMswServer();

// A base64 key: `/`, `+` and `=` are what JSON writers and URL encoders escape.
const KEY = 'SENTINEL/k3y+b64=';

function expectNoKey(text: string): void {
  for (const spelling of [KEY, encodeURIComponent(KEY), 'k3y']) expect(text).not.toContain(spelling);
}

const client = () => new HashScanClient({ apiKey: KEY, baseUrl: BASE_URL, retry: false, cache: false });
const serve = (text: string, status = 200) =>
  serveLookup(server, () => new HttpResponse(text, { status, headers: { 'content-type': 'application/json' } }));

describe.each(Object.entries(JSON_WRITERS))('a service that echoes the API key (%s JSON)', (_writer, write) => {
  it('in a hit: masked in source, data, raw and anomalies', async () => {
    const requests = serve(
      write({ ...HIT, source: `engine ${KEY}`, data: { ...HIT.data, first_seen: KEY }, request: { api_key: KEY } }),
    );
    const result = await client().scan(SHA256);
    expect(requests[0]?.apiKey).toBe(KEY); // sent, so the test can fail
    expect(result).toMatchObject({ verdict: 'malicious', source: 'engine ***', raw: { request: { api_key: '***' } } });
    expectNoKey(views(result));
  });

  it('in a non-detection: masked in message and raw', async () => {
    serve(write({ ...NOT_DETECTED, message: `nothing found for ${KEY}` }));
    const result = await client().scan(SHA256);
    expect(result).toMatchObject({ verdict: 'not_detected', message: 'nothing found for ***' });
    expectNoKey(views(result));
  });

  it('in the body excerpt of an HTTP_STATUS error', async () => {
    serve(write({ error: 'invalid key', api_key: KEY, url: `/hash_scan?api_key=${KEY}` }), 403);
    const error = await client()
      .scan(SHA256)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 403 });
    expect((error as { body: string }).body).toContain('***');
    expectNoKey(views(error));
  });

  it('in a batch outcome', async () => {
    serve(write({ ...HIT, source: `engine ${KEY}` }));
    const outcomes = await client().scanMany([SHA256]);
    expect(outcomes[0]).toMatchObject({ verdict: 'malicious', source: 'engine ***' });
    expectNoKey(views(outcomes));
  });
});
