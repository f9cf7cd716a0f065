import { delay, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HIT, json, MD5, makeClient, NOT_DETECTED, SHA1, SHA256, serveLookup } from '../helpers/hash-lookup.js';
import { useMswServer } from '../helpers/msw.js';

const server = useMswServer();

afterEach(() => {
  vi.useRealTimers();
});

describe('cache', () => {
  it('answers a repeated lookup from the cache, in any letter case', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const client = makeClient({ cache: {} });
    const first = await client.scan(SHA256);
    const second = await client.scan(SHA256.toUpperCase());
    expect(second).toBe(first);
    expect(requests).toHaveLength(1);
  });

  it('answers lookups by the other digests of a flagged file', async () => {
    const requests = serveLookup(server, () => json(HIT));
    const client = makeClient({ cache: {} });
    await client.scan(SHA256);
    const byMd5 = await client.scan(MD5);
    const bySha1 = await client.scan(SHA1.toUpperCase());
    expect(byMd5).toMatchObject({ verdict: 'malicious', hash: MD5, algorithm: 'md5', source: 'engine-x' });
    expect(bySha1).toMatchObject({ verdict: 'malicious', hash: SHA1, algorithm: 'sha1' });
    expect(requests.map((r) => r.hash)).toEqual([SHA256]);
  });

  it('does not alias when the data does not describe the queried file', async () => {
    const requests = serveLookup(server, () => json({ ...HIT, data: { ...HIT.data, sha256: 'e'.repeat(64) } }));
    const client = makeClient({ cache: {} });
    await client.scan(SHA256);
    serveLookup(server, () => json(NOT_DETECTED));
    await expect(client.scan(MD5)).resolves.toMatchObject({ verdict: 'not_detected' });
    expect(requests).toHaveLength(1);
  });

  it('never caches errors', async () => {
    const requests = serveLookup(server, (_hash, call) => (call === 1 ? json({ status: 'busy' }) : json(NOT_DETECTED)));
    const client = makeClient({ cache: {} });
    await expect(client.scan(SHA256)).rejects.toMatchObject({ code: 'STATUS_NOT_SUCCESS' });
    await expect(client.scan(SHA256)).resolves.toMatchObject({ verdict: 'not_detected' });
    expect(requests).toHaveLength(2);
  });

  it('keys entries by data source id', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const a = makeClient({ cache: {}, sourceId: 'a' });
    await a.scan(SHA256);
    await a.scan(SHA256);
    expect(requests).toHaveLength(1);
    expect(a.sourceId).toBe('a');
    expect(makeClient().sourceId).toBe('https://hashscan.test');
  });

  it('expires not_detected sooner than malicious (fake timers)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
    // Fake performance.now() starts at 0, which lru-cache reads as "no start time".
    vi.advanceTimersByTime(1);
    const OTHER = 'c'.repeat(40); // not one of the flagged file's digests, so no alias answers it
    const requests = serveLookup(server, (hash) => json(hash === MD5 ? HIT : NOT_DETECTED));
    const client = makeClient({ cache: { ttlMs: 10_000, notDetectedTtlMs: 1_000 } });
    await client.scan(OTHER);
    await client.scan(MD5);
    expect(requests).toHaveLength(2);

    vi.advanceTimersByTime(1_500);
    await client.scan(OTHER); // not_detected expired
    await client.scan(MD5); // malicious still cached
    expect(requests.map((r) => r.hash)).toEqual([OTHER, MD5, OTHER]);

    vi.advanceTimersByTime(10_000);
    await client.scan(MD5);
    expect(requests.map((r) => r.hash)).toEqual([OTHER, MD5, OTHER, MD5]);
  });

  it('notDetectedTtlMs: 0 caches only hits; cache: false caches nothing; clearCache() forgets', async () => {
    const requests = serveLookup(server, (hash) => json(hash === MD5 ? HIT : NOT_DETECTED));
    const noNegative = makeClient({ cache: { notDetectedTtlMs: 0 } });
    await noNegative.scan(SHA1);
    await noNegative.scan(SHA1);
    await noNegative.scan(MD5);
    await noNegative.scan(MD5);
    expect(requests).toHaveLength(3);

    const off = makeClient({ cache: false });
    await off.scan(MD5);
    await off.scan(MD5);
    expect(requests).toHaveLength(5);

    noNegative.clearCache();
    await noNegative.scan(MD5);
    expect(requests).toHaveLength(6);
  });

  it('evicts the least recently used entry beyond max', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const client = makeClient({ cache: { max: 2 } });
    const [a, b, c] = ['a', 'b', 'c'].map((digit) => digit.repeat(32));
    for (const hash of [a, b, c, a]) await client.scan(hash as string);
    expect(requests.map((r) => r.hash)).toEqual([a, b, c, a]);
  });

  it('returns frozen results so callers cannot corrupt the cache', async () => {
    serveLookup(server, () => json(HIT));
    const result = await makeClient({ cache: {} }).scan(SHA256);
    expect(Object.isFrozen(result)).toBe(true);
    expect(Object.isFrozen(result.raw)).toBe(true);
    expect(result.verdict === 'malicious' && Object.isFrozen(result.data)).toBe(true);
  });
});

describe('in-flight de-duplication', () => {
  it('concurrent scans of one hash share one request', async () => {
    const requests = serveLookup(server, async () => {
      await delay(20);
      return json(NOT_DETECTED);
    });
    const client = makeClient();
    const results = await Promise.all([client.scan(SHA256), client.scan(SHA256.toUpperCase()), client.scan(SHA256)]);
    expect(new Set(results).size).toBe(1);
    expect(requests).toHaveLength(1);
  });

  it("one caller's abort does not abort the others", async () => {
    const requests = serveLookup(server, async () => {
      await delay(50);
      return json(NOT_DETECTED);
    });
    const client = makeClient();
    const controller = new AbortController();
    const leaving = client.scan(SHA256, { signal: controller.signal });
    const staying = client.scan(SHA256, { signal: new AbortController().signal });
    const plain = client.scan(SHA256);
    controller.abort();
    await expect(leaving).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(staying).resolves.toMatchObject({ verdict: 'not_detected' });
    await expect(plain).resolves.toMatchObject({ verdict: 'not_detected' });
    expect(requests).toHaveLength(1);
  });

  it('the shared request is aborted once every caller has left, and a new caller starts afresh', async () => {
    let aborted = 0;
    const requests = serveLookup(server, async (_hash, call) => {
      if (call === 1) {
        await delay(10_000);
        aborted += 1;
      }
      return json(NOT_DETECTED);
    });
    const client = makeClient({ retry: false });
    const one = new AbortController();
    const two = new AbortController();
    const first = client.scan(SHA256, { signal: one.signal });
    const second = client.scan(SHA256, { signal: two.signal });
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    one.abort();
    two.abort();
    await expect(Promise.allSettled([first, second])).resolves.toMatchObject([
      { status: 'rejected', reason: { code: 'ABORTED', attempts: 1 } },
      { status: 'rejected', reason: { code: 'ABORTED', attempts: 1 } },
    ]);
    await expect(client.scan(SHA256)).resolves.toMatchObject({ verdict: 'not_detected' });
    expect(requests).toHaveLength(2);
    expect(aborted).toBe(0);
  });

  it('a failure reaches every waiting caller', async () => {
    const requests = serveLookup(server, async () => {
      await delay(10);
      return HttpResponse.text('oops');
    });
    const client = makeClient();
    const settled = await Promise.allSettled([client.scan(SHA256), client.scan(SHA256)]);
    expect(settled.map((s) => s.status === 'rejected' && (s.reason as { code: string }).code)).toEqual([
      'INVALID_JSON',
      'INVALID_JSON',
    ]);
    expect(requests).toHaveLength(1);
  });
});
