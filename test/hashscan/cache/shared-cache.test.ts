import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../../src/errors/configuration-error.js';
import { sharedCacheKey } from '../../../src/hashscan/cache/verdict-cache.js';
import type { HashScanClientOptions } from '../../../src/hashscan/hashscan-client.js';
import { NO_OBSERVERS, Observers } from '../../../src/observe/observers.js';
import type { SharedStore } from '../../../src/store/shared-store.js';
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
    expect(lines.length).toBeLessThanOrEqual(2); // the first failure, and the back-off if it engaged
    for (const line of lines) expect(JSON.stringify(line)).not.toMatch(/pw|boom|api_key|test-api-key/);
  });

  it('leaves a failing store alone, probes it with one call, uses it again once it answers; one line per transition', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    serveLookup(server, () => json(NOT_DETECTED));
    const { lines, logger } = recordingLogger();
    const info: string[] = [];
    let down = true;
    let calls = 0;
    const store: SharedStore = {
      get: async () => {
        calls += 1;
        if (down) throw Object.assign(new Error('redis://:pw@host down'), { code: 'ECONNREFUSED' });
        return undefined;
      },
      set: async () => true,
      delete: async () => true,
    };
    const client = makeClient({
      logger: { ...logger, info: (message: string) => info.push(message) },
      cache: { store, notDetectedTtlMs: 0 },
    });
    for (let i = 0; i < 10; i++) await client.scan(SHA256);
    expect(calls).toBe(3); // the fourth lookup on skipped the store
    expect(client.stats().cache).toMatchObject({
      storeErrors: 3,
      storeSkipped: 7,
      storeSkipping: true,
      storeBackoffs: 1,
    });
    vi.advanceTimersByTime(1_000);
    await client.scan(SHA256); // the probe: still down, the next one waits 2 s
    await client.scan(SHA256);
    expect(calls).toBe(4);
    vi.advanceTimersByTime(1_999);
    await client.scan(SHA256);
    expect(calls).toBe(4);
    vi.advanceTimersByTime(1);
    down = false;
    await client.scan(SHA256);
    await client.scan(SHA256);
    expect(calls).toBe(6);
    expect(client.stats().cache).toMatchObject({ storeErrors: 4, storeSkipping: false, storeBackoffs: 1 });
    expect(lines.map((line) => line.message)).toEqual([
      'hashscan: shared cache store get failed (ECONNREFUSED); lookups go to the service meanwhile',
      'hashscan: shared cache store failing (ECONNREFUSED); skipped for 1000 ms, then probed by one call at a time; lookups go to the service meanwhile',
    ]);
    expect(lines[1]?.details).toMatchObject({ state: 'skipping', reason: 'ECONNREFUSED', openMs: 1_000 });
    expect(info).toEqual(['hashscan: shared cache store answers again; lookups use it again']);
    expect(JSON.stringify(lines)).not.toContain('pw');
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
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A store whose calls hang (`slow`) or fail at once (`down`), counting them. */
  function faultyStore(mode: { slow?: boolean; down?: boolean }) {
    const counts = { calls: 0 };
    const store: SharedStore = {
      get: () => {
        counts.calls += 1;
        if (mode.down) return Promise.reject(new Error('down'));
        return mode.slow ? new Promise<never>(() => {}) : Promise.resolve('value');
      },
      set: async () => true,
      delete: async () => true,
    };
    return { store, counts };
  }

  it('benches the store after failures that overlap: a burst that all fails at once is not one failure', async () => {
    const { BoundedStore } = await import('../../../src/hashscan/cache/bounded-store.js');
    const mode = { slow: true };
    const { store, counts } = faultyStore(mode);
    const transitions: unknown[] = [];
    const observers = new Observers([{ types: ['store'], observe: (event) => transitions.push(event) }]);
    const bounded = new BoundedStore(store, { timeoutMs: 20, observers, name: 'hashscan' });
    await Promise.all(Array.from({ length: 16 }, () => bounded.get('k')));
    await Promise.all(Array.from({ length: 16 }, () => bounded.get('k')));
    expect(counts.calls).toBe(16); // the second burst was skipped: nothing sent, nothing queued
    expect(bounded.counters).toEqual({ errors: 16, skipped: 16, backoffs: 1 });
    expect(transitions).toEqual([
      { type: 'store', client: 'hashscan', state: 'skipping', reason: 'timeout', backoffMs: 1_000 },
    ]);
  });

  it('lets one probe through at a time, doubles the wait after each failed probe up to 5 s', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { BoundedStore, STORE_MAX_BACKOFF_MS } = await import('../../../src/hashscan/cache/bounded-store.js');
    const mode = { down: true };
    const { store, counts } = faultyStore(mode);
    const bounded = new BoundedStore(store, { timeoutMs: 20, observers: NO_OBSERVERS, name: 'hashscan' });
    for (let i = 0; i < 3; i++) await bounded.get('k');
    const waits: number[] = [];
    for (let round = 0; round < 5; round++) {
      let waited = 0;
      const before = counts.calls;
      while (counts.calls === before) {
        vi.advanceTimersByTime(100);
        waited += 100;
        await Promise.all([bounded.get('k'), bounded.get('k')]);
      }
      expect(counts.calls).toBe(before + 1); // one probe, the other call skipped
      waits.push(waited);
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, STORE_MAX_BACKOFF_MS, STORE_MAX_BACKOFF_MS]);
    mode.down = false;
    vi.advanceTimersByTime(STORE_MAX_BACKOFF_MS);
    await expect(bounded.get('k')).resolves.toBe('value');
    expect(bounded.skipping).toBe(false);
    await expect(bounded.get('k')).resolves.toBe('value');
  });

  it('a busy store that fails a few calls among many answers is not benched', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { BoundedStore } = await import('../../../src/hashscan/cache/bounded-store.js');
    const mode = { down: false };
    const { store } = faultyStore(mode);
    const bounded = new BoundedStore(store, { timeoutMs: 20, observers: NO_OBSERVERS, name: 'hashscan' });
    await Promise.all(Array.from({ length: 10 }, () => bounded.get('k')));
    mode.down = true;
    await Promise.all(Array.from({ length: 9 }, () => bounded.get('k')));
    expect(bounded.counters).toMatchObject({ errors: 9, skipped: 0, backoffs: 0 }); // 9 of 19
    await bounded.get('k');
    expect(bounded.counters).toMatchObject({ errors: 10, backoffs: 1 }); // 10 of 20: half
  });

  it('a few failures spread over more than a second do not bench it', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { BoundedStore } = await import('../../../src/hashscan/cache/bounded-store.js');
    const mode = { down: true };
    const { store } = faultyStore(mode);
    const bounded = new BoundedStore(store, { timeoutMs: 20, observers: NO_OBSERVERS, name: 'hashscan' });
    for (let i = 0; i < 10; i++) {
      await bounded.get('k');
      await bounded.get('k');
      vi.advanceTimersByTime(1_001);
    }
    expect(bounded.counters).toMatchObject({ errors: 20, skipped: 0, backoffs: 0 });
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
