import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../../src/errors/configuration-error.js';
import type { SharedStore } from '../../../src/hashscan/cache/bounded-store.js';
import { sharedCacheKey } from '../../../src/hashscan/cache/verdict-cache.js';
import type { HashScanClientOptions } from '../../../src/hashscan/hashscan-client.js';
import {
  API_KEY,
  BASE_URL,
  HIT,
  json,
  MD5,
  makeClient,
  NOT_DETECTED,
  SHA1,
  SHA256,
  serveLookup,
} from '../../helpers/hash-lookup.js';
import { MemoryStore } from '../../helpers/memory-store.js';
import { useMswServer } from '../../helpers/msw.js';

const server = useMswServer();
const SECRET = 'a-shared-secret-of-at-least-32-bytes!';

afterEach(() => {
  vi.useRealTimers();
});

function replica(store: SharedStore, options: HashScanClientOptions = {}) {
  return makeClient({ cache: { store, secret: SECRET }, ...options });
}

function recordingLogger() {
  const lines: { message: string; details: unknown }[] = [];
  const record = (message: string, details?: unknown): void => {
    lines.push({ message, details });
  };
  return { lines, logger: { structured: true, debug: () => {}, info: () => {}, warn: record, error: record } };
}

describe('shared cache level', () => {
  it('two replicas sharing a store make one request for a hash between them', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const store = new MemoryStore();
    const [a, b] = [replica(store), replica(store)];
    await expect(a.scan(SHA256)).resolves.toMatchObject({ verdict: 'not_detected' });
    await expect(b.scan(SHA256)).resolves.toMatchObject({ verdict: 'not_detected', message: NOT_DETECTED.message });
    await expect(b.scan(SHA256)).resolves.toMatchObject({ verdict: 'not_detected' });
    expect(requests).toHaveLength(1);
    expect(a.stats().cache).toMatchObject({ memoryHits: 0, sharedHits: 0, misses: 1 });
    expect(b.stats().cache).toMatchObject({ memoryHits: 1, sharedHits: 1, misses: 0 });
  });

  it('aliases a hit under its other digests through the store', async () => {
    const requests = serveLookup(server, () => json(HIT));
    const store = new MemoryStore();
    await replica(store).scan(SHA256);
    expect(store.entries.size).toBe(3);
    const other = replica(store);
    await expect(other.scan(MD5)).resolves.toMatchObject({ verdict: 'malicious', hash: MD5, algorithm: 'md5' });
    await expect(other.scan(SHA1.toUpperCase())).resolves.toMatchObject({ verdict: 'malicious', hash: SHA1 });
    expect(requests).toHaveLength(1);
  });

  it('writes with the lifetimes of the in-process cache, and not_detected not at all when its lifetime is 0', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    serveLookup(server, (hash) => (hash === MD5 ? json(NOT_DETECTED) : json({ ...HIT, data: undefined })));
    const store = new MemoryStore();
    const client = replica(store, { cache: { store, secret: SECRET, ttlMs: 1_000, notDetectedTtlMs: 0 } });
    await client.scan(SHA256);
    await client.scan(MD5);
    expect([...store.entries.keys()]).toEqual([sharedCacheKey(BASE_URL, SHA256)]);
    expect(store.entries.get(sharedCacheKey(BASE_URL, SHA256))?.expiresAt).toBe(Date.now() + 1_000);
  });

  it('never stores errors', async () => {
    serveLookup(server, () => json({ ...NOT_DETECTED, is_virus: 'false' }));
    const store = new MemoryStore();
    await expect(replica(store).scan(SHA256)).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
    expect(store.entries.size).toBe(0);
  });

  it('ignores an entry sealed with another secret (a miss, logged), asks the service and replaces it', async () => {
    const requests = serveLookup(server, () => json(HIT));
    const store = new MemoryStore();
    await makeClient({ cache: { store, secret: 'x'.repeat(32) } }).scan(SHA256);
    const { lines, logger } = recordingLogger();
    const client = replica(store, { logger });
    await expect(client.scan(SHA256)).resolves.toMatchObject({ verdict: 'malicious' });
    expect(requests).toHaveLength(2);
    expect(client.stats().cache).toMatchObject({ sharedRejected: 1, sharedHits: 0 });
    expect(lines.map((line) => line.message)).toEqual([
      `hashscan: ignored a shared cache entry for ${SHA256} (bad MAC); asking the service`,
    ]);
    // The entry was rewritten under this client's secret: a third replica reads it.
    await replica(store).scan(SHA256);
    expect(requests).toHaveLength(2);
  });

  it('by default, replicas with the same API key and source share entries; another key does not', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const store = new MemoryStore();
    await makeClient({ cache: { store } }).scan(SHA256);
    await makeClient({ cache: { store } }).scan(SHA256);
    expect(requests).toHaveLength(1);
    await makeClient({ apiKey: 'another-api-key', cache: { store } }).scan(SHA256);
    expect(requests).toHaveLength(2);
  });

  it('keeps an entry read from the store in-process only for what is left of its life', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const store = new MemoryStore();
    await replica(store).scan(SHA256);
    await vi.advanceTimersByTimeAsync(50_000); // of the 60 s of a not_detected
    const late = replica(store);
    await late.scan(SHA256);
    expect(late.stats().cache.sharedHits).toBe(1);
    await vi.advanceTimersByTimeAsync(10_001); // not 60 s more: the 10 s left of the entry's life
    await late.scan(SHA256);
    expect(requests).toHaveLength(2);
  });

  it.each([
    [
      'throws synchronously',
      {
        get: () => {
          throw new Error('boom redis://user:pw@host');
        },
        set: () => {
          throw new Error('boom');
        },
        delete: async () => true,
      },
    ],
    [
      'rejects',
      {
        get: async () => Promise.reject(Object.assign(new Error('redis://u:pw@h down'), { code: 'ECONNREFUSED' })),
        set: async () => Promise.reject(new Error('x')),
        delete: async () => true,
      },
    ],
    [
      'never answers',
      { get: () => new Promise<never>(() => {}), set: () => new Promise<never>(() => {}), delete: async () => true },
    ],
    [
      'returns garbage',
      { get: async () => ({ verdict: 'not_detected' }), set: async () => 'nonsense', delete: async () => true },
    ],
  ])('a store that %s never fails a lookup or makes it hang', async (_name, store) => {
    const requests = serveLookup(server, () => json(HIT));
    const { lines, logger } = recordingLogger();
    const client = makeClient({ logger, cache: { store: store as SharedStore, storeTimeoutMs: 20 } });
    const started = performance.now();
    await expect(client.scan(SHA256)).resolves.toMatchObject({ verdict: 'malicious' });
    await expect(client.scan(MD5)).resolves.toMatchObject({ verdict: 'malicious' }); // in-process alias
    await expect(client.scan('0'.repeat(64))).resolves.toMatchObject({ verdict: 'malicious' });
    // Generous: the bound is 20 ms per store call; the machine may be loaded.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(requests).toHaveLength(2);
    expect(lines.length).toBeLessThanOrEqual(1);
    for (const line of lines) expect(JSON.stringify(line)).not.toMatch(/pw|boom|api_key|test-api-key/);
  });

  it('logs store failures once per interval and backs off the store for a second', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    serveLookup(server, () => json(NOT_DETECTED));
    const { lines, logger } = recordingLogger();
    let calls = 0;
    const store: SharedStore = {
      get: async () => {
        calls += 1;
        throw Object.assign(new Error('down'), { code: 'ECONNREFUSED' });
      },
      set: async () => true,
      delete: async () => true,
    };
    const client = makeClient({ logger, cache: { store, notDetectedTtlMs: 0 } });
    for (let i = 0; i < 4; i++) await client.scan(SHA256);
    expect(calls).toBe(3); // the fourth lookup skipped the store
    vi.advanceTimersByTime(1_000);
    await client.scan(SHA256);
    expect(calls).toBe(4);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.message).toBe(
      'hashscan: shared cache store get failed (ECONNREFUSED); lookups go to the service meanwhile',
    );
    vi.advanceTimersByTime(60_000);
    await client.scan(SHA256);
    expect(lines).toHaveLength(2);
    expect(lines[1]?.details).toMatchObject({ failuresNotLogged: 3 });
    expect(client.stats().cache).toMatchObject({ storeErrors: 5, storeSkipped: 1 });
  });

  it('concurrent callers of one hash cost one store read and one request', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const store = new MemoryStore();
    const client = replica(store);
    await Promise.all([client.scan(SHA256), client.scan(SHA256), client.scanMany([SHA256, SHA256])]);
    expect(requests).toHaveLength(1);
    expect(store.calls.filter((call) => call.startsWith('get'))).toHaveLength(1);
  });

  it('never shows the secret in inspect, JSON or stats', () => {
    const client = replica(new MemoryStore());
    const shown = inspect(client, { depth: 10 }) + JSON.stringify(client) + JSON.stringify(client.stats());
    expect(shown).not.toContain(SECRET);
    expect(shown).not.toContain(API_KEY);
  });

  it.each([
    [{ store: 'redis://x' }, 'cache.store'],
    [{ store: { get: async () => undefined } }, 'cache.store'],
    [{ store: new MemoryStore(), secret: 'short' }, 'cache.secret'],
    [{ secret: SECRET }, 'cache.store'],
    [{ store: new MemoryStore(), storeTimeoutMs: 0 }, 'cache.storeTimeoutMs'],
  ])('refuses cache %j', (cache, option) => {
    expect(() => makeClient({ cache: cache as never })).toThrow(ConfigurationError);
    try {
      makeClient({ cache: cache as never });
    } catch (error) {
      expect(error).toMatchObject({ option });
    }
  });
});

describe('BoundedStore back-off', () => {
  it('counts calls that failed together as one failure, so a burst meeting one slow moment does not bench the store', async () => {
    const { BoundedStore } = await import('../../../src/hashscan/cache/bounded-store.js');
    const { NO_OBSERVERS } = await import('../../../src/observe/observers.js');
    let slow = true;
    let calls = 0;
    const store: SharedStore = {
      get: () => {
        calls += 1;
        return slow ? new Promise<never>(() => {}) : Promise.resolve('value');
      },
      set: async () => true,
      delete: async () => true,
    };
    const bounded = new BoundedStore(store, { timeoutMs: 20, observers: NO_OBSERVERS, name: 'hashscan' });
    await Promise.all(Array.from({ length: 10 }, () => bounded.get('k')));
    slow = false;
    await expect(bounded.get('k')).resolves.toBe('value');
    expect(calls).toBe(11);
    expect(bounded.counters).toEqual({ errors: 10, skipped: 0 });
    // Three failures one after another do bench it.
    slow = true;
    for (let i = 0; i < 3; i++) await bounded.get('k');
    slow = false;
    await expect(bounded.get('k')).resolves.toBeUndefined();
    expect(bounded.counters).toEqual({ errors: 13, skipped: 1 });
  });
});

describe('cache.secret with an apiKey provider', () => {
  it('is required next to cache.store (keys that rotate cannot seal shared entries)', () => {
    expect(() => makeClient({ apiKey: () => API_KEY, cache: { store: new MemoryStore() } })).toThrow(
      /cache\.secret: is required with cache\.store when apiKey is a provider/,
    );
  });

  it('lets replicas with rotating keys share entries when set', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const store = new MemoryStore();
    await makeClient({ apiKey: () => 'key-generation-1', cache: { store, secret: SECRET } }).scan(SHA256);
    await makeClient({ apiKey: () => 'key-generation-2', cache: { store, secret: SECRET } }).scan(SHA256);
    expect(requests).toHaveLength(1);
  });
});
