import { afterEach, describe, expect, it } from 'vitest';
import { HashScanClient } from '../../src/hashscan/hashscan-client.js';
import { NOT_DETECTED, SHA256 } from '../helpers/hash-lookup.js';
import { closedPort, type Loopback, startLoopback } from '../helpers/loopback.js';

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const client = (baseUrl: string, options = {}) =>
  new HashScanClient({
    apiKey: 'loopback-key',
    baseUrl,
    cache: false,
    retry: { retries: 1, minDelayMs: 1, maxDelayMs: 2 },
    ...options,
  });

describe('against a real loopback server', () => {
  it('a connection reset is a NETWORK error, retried once', async () => {
    server = await startLoopback((_request, _response, socket) => socket.destroy());
    const error = await client(server.url)
      .scan(SHA256)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NETWORK', attempts: 2 });
    expect(server.hits()).toBe(2);
  });

  it('a stalled server is a TIMEOUT after timeoutMs, retried once', async () => {
    server = await startLoopback(() => {
      // never answers
    });
    // 1500 ms, not less: the second attempt's request must reach the server before its time-out,
    // even on a loaded machine, for the count of hits below to hold.
    const error = await client(server.url, { timeoutMs: 1500 })
      .scan(SHA256)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TIMEOUT', attempts: 2 });
    expect((error as Error).message).toContain('1500 ms');
    expect(server.hits()).toBe(2);
  });

  it('a body that stalls after the headers is a TIMEOUT too (the time-out covers the body)', async () => {
    server = await startLoopback((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"status":"success",');
    });
    const error = await client(server.url, { timeoutMs: 50, retry: false })
      .scan(SHA256)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TIMEOUT', attempts: 1 });
  });

  it('a body cut mid-way is a NETWORK error, never not_detected', async () => {
    server = await startLoopback((_request, response, socket) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
      response.write(JSON.stringify(NOT_DETECTED).slice(0, 30), () => socket.destroy());
    });
    const error = await client(server.url)
      .scan(SHA256)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NETWORK', attempts: 2 });
    expect(server.hits()).toBe(2);
  });

  it('a refused connection is a NETWORK error naming ECONNREFUSED', async () => {
    const port = await closedPort();
    const error = await client(`http://127.0.0.1:${port}`)
      .scan(SHA256)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NETWORK', attempts: 2 });
    expect((error as Error).message).toContain('ECONNREFUSED');
  });

  it('a well-formed answer over real HTTP resolves, with the User-Agent set', async () => {
    let userAgent: string | undefined;
    server = await startLoopback((request, response) => {
      userAgent = request.headers['user-agent'];
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(NOT_DETECTED));
    });
    await expect(client(server.url).scan(SHA256)).resolves.toMatchObject({ verdict: 'not_detected' });
    expect(userAgent).toMatch(/^hashscan-sms\/\d+\.\d+\.\d+ node\//);
  });
});
