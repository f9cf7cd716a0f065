import type { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HashScanClient } from '../../../src/hashscan/hashscan-client.js';
import { NOT_DETECTED } from '../../helpers/hash-lookup.js';
import { type Loopback, startLoopback } from '../../helpers/loopback.js';

// On the default path, once an attempt's body is read its signal is aborted
// ("settled"), so undici drops the request's abort bookkeeping at once
// instead of at the next full GC (bench/batch-memory.ts). That abort must
// neither change the answer nor cost the kept-alive connection.

let server: Loopback | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

const hashes = (count: number): string[] => Array.from({ length: count }, (_, i) => i.toString(16).padStart(64, '0'));

describe('a settled attempt on the default path', () => {
  it('keeps connections alive: 60 lookups one after another use at most two sockets', async () => {
    const sockets = new Set<Socket>();
    server = await startLoopback((_request, response, socket) => {
      sockets.add(socket);
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(NOT_DETECTED));
    });
    const client = new HashScanClient({ baseUrl: server.url, apiKey: 'key', cache: false });
    const outcomes = await client.scanMany(hashes(60), { concurrency: 1 });
    expect(outcomes.map((outcome) => outcome.verdict)).toEqual(Array(60).fill('not_detected'));
    expect(server.hits()).toBe(60);
    // undici may open a second socket before the first is back in its pool; a socket
    // cut per request would show 60 here.
    expect(sockets.size).toBeLessThanOrEqual(2);
  });

  it('aborts the signal fetch was given once the body is read, and only then', async () => {
    server = await startLoopback((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(NOT_DETECTED));
    });
    const signals: AbortSignal[] = [];
    const original = globalThis.fetch;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      if (init?.signal) signals.push(init.signal);
      const response = await original(input, init);
      // Headers are in, the body is not read yet: the attempt is still live.
      expect(init?.signal?.aborted).toBe(false);
      return response;
    });
    const client = new HashScanClient({ baseUrl: server.url, apiKey: 'key', cache: false });
    const [hash] = hashes(1) as [string];
    await expect(client.scan(hash)).resolves.toMatchObject({ verdict: 'not_detected' });
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[0]?.reason).toBe('settled');
  });
});
